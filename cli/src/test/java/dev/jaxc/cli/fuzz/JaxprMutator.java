package dev.jaxc.cli.fuzz;

import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Damages real jaxprs the ways files get damaged and hand-edited: truncation, splices of two
 * files, deleted, duplicated and swapped lines, swapped tokens, and changed dtypes, shapes,
 * numbers, primitive names and param values. One to three mutations per input.
 */
public final class JaxprMutator {
  private static final Pattern DTYPE = Pattern.compile("\\b(f16|bf16|f32|f64|i8|i16|i32|i64|u8|u16|u32|u64|bool|c64|c128)\\[");
  private static final Pattern SHAPE = Pattern.compile("\\[[0-9,]*\\]");
  private static final Pattern NUMBER = Pattern.compile("-?\\b[0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?\\b");
  private static final Pattern PRIMITIVE = Pattern.compile("= ([a-z_][a-z0-9_\\-]*)");
  private static final Pattern PARAM = Pattern.compile("\\b([a-z_]+)=([^ \\]\\n]+)");
  private static final String[] DTYPES = {"f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u32",
      "u64", "bool", "c64", "c128", "f8_e4m3fn", "i4", "float0", "key<fry>", "Tok", "*", "f32<host>", "x", ""};
  private static final String[] DIMS = {"", "0", "1", "3", "-1", "7,0", "1,1,1,1,1,1,1,1", "2147483647",
      "2147483648", "99999999999999999999", "65536,65536", "1000000,1000000", "b", "2*b", "3,", ",", "1 2"};
  private static final String[] NUMBERS = {"0", "1", "-1", "2", "-2147483648", "2147483648", "9223372036854775808",
      "18446744073709551616", "1e308", "1e-320", "-0.0", "nan", "inf", "99999999999999999999999999", "0.5", "3", "64",
      "1000000000"};
  private static final String[] PARAM_VALUES = {"None", "True", "False", "()", "(0,)", "(1, 0)", "(-1,)", "((0, 1),)",
      "0", "-1", "2", "99999", "float32", "int32", "bool", "(0, 0, 0, 0, 0, 0, 0, 0, 0)", "jaxpr", "{ lambda ; . let  in () }",
      "(([1], [0]), ([], []))", "(([5], [0]), ([], []))", "(([0], [0]), ([0], [0]))", "((0, 1, 2),)", "((-5, -5, 0),)",
      "((0, 0, -1),)", "(2147483647,)", "GatherScatterMode.FILL_OR_DROP", "x", "[", "(", ")"};
  private static final String[] NAMES;

  static {
    List<String> names = new ArrayList<>();
    for (Primitive p : Primitive.values()) names.add(p.printedName());
    names.addAll(Arrays.asList("sinn", "mull", "xla_call", "xla_pmap", "custom_thing", "lambda", "let", "in", "_"));
    NAMES = names.toArray(new String[0]);
  }

  private final Random r;
  private final List<String> corpus;

  public JaxprMutator(Random r, List<String> corpus) {
    this.r = r;
    this.corpus = corpus;
  }

  /** A corpus file with one to three mutations. */
  public String next() {
    return mutated(corpus.get(r.nextInt(corpus.size())));
  }

  /** {@code s} with one to three mutations. */
  public String mutated(String s) {
    for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) s = mutate(s);
    return s;
  }

  private String mutate(String s) {
    if (s.isEmpty()) return s;
    return switch (r.nextInt(15)) {
      case 14 -> transplant(s, corpus.get(r.nextInt(corpus.size())));
      case 0 -> s.substring(0, r.nextInt(s.length()));
      case 1 -> splice(s, corpus.get(r.nextInt(corpus.size())));
      case 2 -> lines(s, 0);
      case 3 -> lines(s, 1);
      case 4 -> lines(s, 2);
      case 5 -> swapTokens(s);
      case 6 -> replace(s, DTYPE, m -> pick(DTYPES) + "[");
      case 7 -> replace(s, SHAPE, m -> "[" + pick(DIMS) + "]");
      case 8 -> replace(s, NUMBER, m -> pick(NUMBERS));
      case 9 -> replace(s, PRIMITIVE, m -> "= " + (r.nextInt(4) == 0 ? misspell(m.group(1)) : pick(NAMES)));
      case 10 -> replace(s, PARAM, m -> m.group(1) + "=" + pick(PARAM_VALUES));
      case 11 -> chars(s);
      case 12 -> duplicateRange(s);
      default -> replace(s, PARAM, m -> (r.nextBoolean() ? "" : pick(new String[] {"axes", "shape", "jaxpr", "x"}) + "=")
          + m.group(2));
    };
  }

  private String splice(String a, String b) {
    int i = r.nextInt(a.length() + 1);
    int j = b.isEmpty() ? 0 : r.nextInt(b.length());
    return a.substring(0, i) + b.substring(j);
  }

  /** A line of {@code from} (an equation, a param, a binder list) inserted at a line of {@code s}. */
  private String transplant(String s, String from) {
    String[] src = from.split("\n");
    List<String> ls = new ArrayList<>(Arrays.asList(s.split("\n", -1)));
    ls.add(r.nextInt(ls.size() + 1), src[r.nextInt(src.length)]);
    return String.join("\n", ls);
  }

  /** 0: delete a run of lines; 1: duplicate one; 2: swap two. */
  private String lines(String s, int op) {
    List<String> ls = new ArrayList<>(Arrays.asList(s.split("\n", -1)));
    if (ls.size() < 2) return s;
    int i = r.nextInt(ls.size());
    if (op == 0) {
      int n = 1 + r.nextInt(Math.min(3, ls.size() - i));
      for (int k = 0; k < n; k++) ls.remove(i);
    } else if (op == 1) {
      ls.add(i, ls.get(i));
    } else {
      int j = r.nextInt(ls.size());
      String t = ls.get(i);
      ls.set(i, ls.get(j));
      ls.set(j, t);
    }
    return String.join("\n", ls);
  }

  private String swapTokens(String s) {
    String[] toks = s.split("(?<=\\s)|(?=\\s)");
    if (toks.length < 3) return s;
    int i = r.nextInt(toks.length);
    int j = r.nextInt(toks.length);
    String t = toks[i];
    toks[i] = toks[j];
    toks[j] = t;
    return String.join("", toks);
  }

  /** Replaces one random match of {@code p}. */
  private String replace(String s, Pattern p, java.util.function.Function<Matcher, String> with) {
    Matcher m = p.matcher(s);
    List<int[]> hits = new ArrayList<>();
    while (m.find() && hits.size() < 10_000) {
      hits.add(new int[] {m.start(), m.end()});
    }
    if (hits.isEmpty()) return s;
    int k = r.nextInt(hits.size());
    m.reset();
    for (int i = 0; i <= k; i++) m.find();
    return s.substring(0, m.start()) + with.apply(m) + s.substring(m.end());
  }

  private String misspell(String name) {
    if (name.length() < 2) return name + "x";
    int i = r.nextInt(name.length());
    return switch (r.nextInt(3)) {
      case 0 -> name.substring(0, i) + name.substring(i + 1);
      case 1 -> name.substring(0, i) + (char) ('a' + r.nextInt(26)) + name.substring(i);
      default -> name.substring(0, i) + (char) ('a' + r.nextInt(26)) + name.substring(i + 1);
    };
  }

  /** Inserts, deletes or overwrites a few characters, from the jaxpr alphabet and beyond. */
  private String chars(String s) {
    String alphabet = "{}[]()<>:;.,=_-+*~ \n\t0123456789abcdefxyzTF'\"\\\u00e9\u4e2d";
    int i = r.nextInt(s.length());
    int n = 1 + r.nextInt(4);
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < n; k++) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
    return switch (r.nextInt(3)) {
      case 0 -> s.substring(0, i) + sb + s.substring(i);
      case 1 -> s.substring(0, i) + s.substring(Math.min(s.length(), i + n));
      default -> s.substring(0, i) + sb + s.substring(Math.min(s.length(), i + n));
    };
  }

  /** Repeats a random range (up to 3 times): deeper nesting, longer lists. */
  private String duplicateRange(String s) {
    int i = r.nextInt(s.length());
    int j = Math.min(s.length(), i + 1 + r.nextInt(200));
    String part = s.substring(i, j);
    return s.substring(0, j) + part.repeat(1 + r.nextInt(3)) + s.substring(j);
  }

  private String pick(String[] xs) {
    return xs[r.nextInt(xs.length)];
  }
}
