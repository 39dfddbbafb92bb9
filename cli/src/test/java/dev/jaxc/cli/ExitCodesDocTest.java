package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/exit-codes.md is the truth: its status table names exactly {@link ExitCode}'s constants, and
 * every command of its situations table returns the status given there. Status 3 is provoked by an
 * output stream that throws.
 */
class ExitCodesDocTest {
  @TempDir Path tmp;

  private static List<List<String>> table(String doc, String firstHeader) {
    List<List<String>> rows = new ArrayList<>();
    boolean in = false;
    for (String line : doc.split("\n")) {
      if (line.startsWith("| " + firstHeader + " |")) {
        in = true;
      } else if (in && line.startsWith("| ---")) {
        continue;
      } else if (in && line.startsWith("|")) {
        List<String> cells = new ArrayList<>();
        for (String c : line.substring(1, line.length() - 1).split(" \\| ")) cells.add(c.trim());
        rows.add(cells);
      } else if (in) {
        break;
      }
    }
    return rows;
  }

  private static String doc() throws Exception {
    return Files.readString(Corpus.root().resolve("docs/exit-codes.md"));
  }

  @Test
  void theStatusTableIsExitCodesConstants() throws Exception {
    Map<Integer, String> documented = new TreeMap<>();
    for (List<String> row : table(doc(), "status")) documented.put(Integer.parseInt(row.get(0)), row.get(1).replace("`", ""));
    Map<Integer, String> constants = new TreeMap<>();
    for (Field f : ExitCode.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) constants.put(f.getInt(null), f.getName());
    }
    assertEquals(constants, documented);
  }

  @Test
  void everySituationReturnsItsStatus() throws Exception {
    List<List<String>> rows = table(doc(), "situation");
    TreeSet<Integer> seen = new TreeSet<>();
    Path root = Corpus.root();
    for (List<String> row : rows) {
      String command = row.get(1).replace("`", "");
      int expected = Integer.parseInt(row.get(2));
      seen.add(expected);
      String[] words = command.split(" ");
      assertEquals("jaxc", words[0], command);
      List<String> args = new ArrayList<>();
      for (int i = 1; i < words.length; i++) {
        String w = words[i].replace("$TMP", tmp.toString());
        if (w.startsWith("testdata/") || w.startsWith("bench/")) w = root.resolve(w).toString();
        args.add(w);
      }
      CliRunner r = CliRunner.run(args.toArray(String[]::new));
      assertEquals(expected, r.status(), row.get(0) + ": " + command + "\n" + r.err());
      if (expected == ExitCode.USAGE) assertTrue(r.err().contains("Try 'jaxc"), command + "\n" + r.err());
      if (expected != ExitCode.OK) assertTrue(r.err().contains("error: "), command + "\n" + r.err());
    }
    assertEquals(new TreeSet<>(List.of(ExitCode.OK, ExitCode.BAD_INPUT, ExitCode.USAGE)), seen);
  }

  @Test
  void anUnexpectedExceptionIsStatus3InOneLine() {
    Writer failing = new Writer() {
      @Override
      public void write(char[] b, int off, int len) {
        throw new IllegalStateException("the output stream broke");
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    StringWriter err = new StringWriter();
    int status = Main.run(new String[] {"promote", "f32", "i32"}, new PrintWriter(failing), new PrintWriter(err, true));
    assertEquals(ExitCode.INTERNAL, status, err.toString());
    assertTrue(err.toString().startsWith("jaxc: internal error: java.lang.IllegalStateException: the output stream broke\n"), err.toString());
    assertTrue(!err.toString().contains("\tat "), err.toString());
  }
}
