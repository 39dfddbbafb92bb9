package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/pipelines.md's CI recipe: the shell block after {@code <!-- recipe -->} runs, on a golden
 * case laid out as the recipe says, to a shared library, a header and a passing check; and the
 * GitHub Actions and GitLab snippets run the same commands.
 */
class PipelinesDocTest {
  @TempDir Path dir;

  private static List<String> blocks(String doc, String fence) {
    List<String> r = new ArrayList<>();
    int at = 0;
    while ((at = doc.indexOf("```" + fence + "\n", at)) >= 0) {
      int start = at + fence.length() + 4;
      int end = doc.indexOf("```", start);
      r.add(doc.substring(start, end));
      at = end + 3;
    }
    return r;
  }

  @Test
  void theRecipeCompilesAndChecksAGoldenModel() throws Exception {
    String doc = Files.readString(Corpus.root().resolve("docs/pipelines.md"));
    int marker = doc.indexOf("<!-- recipe -->\n```bash\n");
    assertTrue(marker >= 0, "no recipe block");
    String recipe = blocks(doc.substring(marker), "bash").get(0);
    List<String> commands = recipe.lines().filter(l -> l.startsWith("jaxc ") || l.startsWith("mkdir ")).toList();
    assertEquals(3, commands.size(), recipe);
    List<String> yaml = blocks(doc, "yaml");
    assertEquals(2, yaml.size());
    for (String y : yaml) for (String c : commands) assertTrue(y.contains(c), "a CI snippet lacks: " + c + "\n" + y);

    assumeTrue(CompileTools.has("ld.lld") || CompileTools.has("cc"), "no linker (lld or cc): the recipe is not run");
    Path repo = Files.createDirectory(dir.resolve("repo"));
    Path model = Files.createDirectory(repo.resolve("model"));
    Path golden = Corpus.testdata("cases/model_plain_mlp_numpy_consts");
    for (String f : List.of("model.jaxpr", "inputs.npz", "expected.npz", "meta.json")) Files.copy(golden.resolve(f), model.resolve(f));
    Path bin = Files.createDirectory(dir.resolve("bin"));
    CompileTools.jaxcScript(bin);
    Path script = Files.writeString(dir.resolve("recipe.sh"), "export PATH='" + bin + "':\"$PATH\"\n" + recipe);
    String out = CompileTools.run(repo, "bash", script.toString());
    assertTrue(out.endsWith("1 passed, 0 failed\n"), out);
    assertEquals(CompileTools.ET_DYN, CompileTools.elfKind(repo.resolve("build/libmodel.so"))[0]);
    assertTrue(Files.readString(repo.resolve("build/model.h")).contains("int32_t model(const void *const *inputs, void *const *outputs);"));
  }
}
