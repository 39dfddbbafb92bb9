package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.ControlFlowPlan;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.PlanGraph;
import dev.jaxc.backend.llvm.plan.Step;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jaxc inspect --graph}: every corpus model's plan is drawn with each of its steps, buffers
 * and nested bodies, and Graphviz (the real tool, where installed) accepts every drawing.
 */
class PlanDrawingTest {
  private static final Pattern TOP_STEP = Pattern.compile(
      "^ {4}style=filled; color=\"#999999\"; fillcolor=\"#[0-9a-f]+\"; label=\"(kernel|fusion|multi-output kernel|row loop) (\\d+)",
      Pattern.MULTILINE);

  /**
   * Drawings up to this many bytes of DOT are laid out by Graphviz; the few larger ones (the svd,
   * eig and schur cases' plans of 300 to 2,000 steps, whose expansions are inlined) are checked
   * for their steps, buffers and bodies like every other, but dot's layout takes it minutes each
   * (8 s for 0.7 MB, over 10 minutes for the 45 MB of all of them together).
   */
  private static final int LAYOUT_LIMIT = 600_000;

  @TempDir Path dir;

  @Test
  void everyCorpusPlanIsDrawnWholeAndGraphvizAcceptsIt() throws Exception {
    StringBuilder all = new StringBuilder();
    int models = 0;
    int laidOut = 0;
    for (GoldenCase c : GoldenCase.find(Corpus.testdata("cases"))) {
      Program lowered = HostRun.lower(new FrontEnd().run(c.model(),
          new TypeConfig(c.meta().x64(), PromotionMode.STANDARD), Phase.TYPE));
      Plan plan = Compiler.plan(lowered);
      String name = c.dir().getFileName().toString();
      String dot = PlanGraph.dot(plan, name);
      checkCovers(name, plan, dot, "");
      // The top-level steps, numbered as scheduled (copies to outputs are boxes of their own).
      Matcher m = TOP_STEP.matcher(dot);
      int k = 0;
      while (m.find()) assertEquals(k++, Integer.parseInt(m.group(2)), name + ": step numbering\n" + dot);
      long copies = plan.steps().stream().filter(s -> s instanceof Step.CopyOut).count();
      assertEquals(plan.steps().size() - copies, k, name + ": one box per step\n" + dot);
      if (dot.length() <= LAYOUT_LIMIT) {
        all.append(dot);
        laidOut++;
      }
      models++;
    }
    assertTrue(models >= 700, "corpus models drawn: " + models);
    assertTrue(laidOut >= models - 40, "drawings laid out: " + laidOut + " of " + models);
    renderAll(all.toString(), laidOut);
  }

  /**
   * Every buffer of the plan (inputs, outputs, workspace temporaries) is a node that says where it
   * lives, and every nested body of cond, while and scan is a box with its step count.
   */
  private static void checkCovers(String name, Plan plan, String dot, String where) {
    for (Var v : plan.inputs()) assertNode(name, dot, v, plan.buffer(v));
    for (Atom a : plan.outputs()) if (a instanceof Var v && plan.isMaterialised(v)) assertNode(name, dot, v, plan.buffer(v));
    for (Var v : plan.temporaries()) assertNode(name, dot, v, plan.buffer(v));
    for (Step s : steps(plan.steps())) {
      if (!(s instanceof Step.Kernel k) || !plan.isControlFlow(k.eqn())) continue;
      ControlFlowPlan cf = plan.controlFlow(k.eqn());
      List<Plan> bodies = cf instanceof ControlFlowPlan.Cond c ? c.branches()
          : cf instanceof ControlFlowPlan.While w ? List.of(w.cond(), w.body())
          : List.of(((ControlFlowPlan.Scan) cf).body());
      for (Plan b : bodies) {
        int n = b.steps().size();
        assertTrue(dot.contains(": " + n + (n == 1 ? " step\"" : " steps\"")), name + ": a nested body of " + n + " steps\n" + dot);
        checkCovers(name, b, dot, where + "/" + k.eqn().primitive());
      }
    }
  }

  private static List<Step> steps(List<Step> steps) {
    List<Step> r = new ArrayList<>();
    for (Step s : steps) {
      if (s instanceof Step.Rows rows) r.addAll(steps(rows.steps()));
      else if (s instanceof Step.MultiOutput mo) r.add(mo.kernel());
      else r.add(s);
    }
    return r;
  }

  private static void assertNode(String name, String dot, Var v, Buffer b) {
    String where = b instanceof Buffer.Input in ? "input " + in.index()
        : b instanceof Buffer.Output o ? "output " + o.index()
        : "workspace +" + ((Buffer.Temp) b).offset();
    String label = "label=\"" + v.name() + ": " + v.type().text() + "\\n";
    int at = dot.indexOf(label);
    boolean found = false;
    while (at >= 0 && !found) {
      int end = dot.indexOf('"', at + label.length());
      found = dot.substring(at, end).endsWith(", " + where);
      at = dot.indexOf(label, at + 1);
    }
    assertTrue(found, name + ": no node for " + v.name() + " (" + where + ")\n" + dot);
  }

  /** Graphviz reads the drawings and lays them out (one process for all of them). */
  private void renderAll(String dots, int models) throws Exception {
    Assumptions.assumeTrue(onPath("dot"), "Graphviz's dot is not on PATH: drawings not rendered (.ci/run installs graphviz)");
    Path in = dir.resolve("all.dot");
    Files.writeString(in, dots);
    Path svg = dir.resolve("all.svg");
    // Standard output, not -o: with -o each graph of the file overwrites the one before.
    Path err = dir.resolve("dot.log");
    // Standard error to a file: reading the pipe would block past the timeout.
    Process p = new ProcessBuilder("dot", "-Tsvg", in.toString()).redirectOutput(svg.toFile())
        .redirectError(err.toFile()).start();
    boolean finished = p.waitFor(600, TimeUnit.SECONDS);
    if (!finished) p.destroyForcibly();
    assertTrue(finished, "dot did not finish in 10 minutes");
    String log = Files.readString(err);
    assertEquals(0, p.exitValue(), log);
    assertFalse(log.toLowerCase().contains("error"), log);
    String out = Files.readString(svg);
    int svgs = out.split("<svg ", -1).length - 1;
    assertEquals(models, svgs, "one SVG per drawing");
  }

  @Test
  void cliWritesDotOrSvgAndRejectsWhatItCannotDo() throws Exception {
    Path model = Corpus.root().resolve("bench/suite/cases/rnn_scan/model.jaxpr");
    CliRunner dot = CliRunner.run("inspect", "--graph", "dot", model.toString());
    assertEquals(0, dot.status(), dot.err());
    assertTrue(dot.out().startsWith("digraph plan {"), dot.out());
    // The scan's body (a dot_general with its epilogue) is drawn inside the scan's box.
    assertTrue(dot.out().contains("label=\"scan body: 1 step\""), dot.out());
    assertTrue(dot.out().contains("dot_general with its epilogue"), dot.out());
    CliRunner ptx = CliRunner.run("inspect", "--graph", "dot", "-target", "ptx", model.toString());
    assertEquals(0, ptx.status(), ptx.err());

    assertEquals(ExitCode.USAGE, CliRunner.run("inspect", "--graph", "png", model.toString()).status());
    assertEquals(ExitCode.USAGE, CliRunner.run("inspect", "-o", dir.resolve("x").toString(), model.toString()).status());
    assertEquals(ExitCode.USAGE, CliRunner.run("inspect", "--graph", "dot", "-target", "riscv", model.toString()).status());
    CliRunner noDir = CliRunner.run("inspect", "--graph", "dot", "-o", dir.resolve("no/such/g.dot").toString(), model.toString());
    assertEquals(ExitCode.BAD_INPUT, noDir.status());
    assertEquals(dir.resolve("no/such/g.dot") + ": error: cannot write: no such directory", noDir.firstErrLine());

    PlanDrawing.RenderException missing = assertThrows(PlanDrawing.RenderException.class,
        () -> PlanDrawing.render("digraph g {}", "jaxc-no-such-graphviz-dot"));
    assertTrue(missing.getMessage().startsWith("--graph svg needs Graphviz's 'dot' on PATH"), missing.getMessage());

    Assumptions.assumeTrue(onPath("dot"), "Graphviz's dot is not on PATH: --graph svg not run (.ci/run installs graphviz)");
    Path svg = dir.resolve("g.svg");
    CliRunner r = CliRunner.run("inspect", "--graph", "svg", "-o", svg.toString(), model.toString());
    assertEquals(0, r.status(), r.err());
    String text = Files.readString(svg);
    assertTrue(text.contains("<svg") && text.contains("scan body: 1 step"), text);
    PlanDrawing.RenderException bad = assertThrows(PlanDrawing.RenderException.class,
        () -> PlanDrawing.render("digraph g { a -> }", "dot"));
    assertTrue(bad.getMessage().startsWith("Graphviz's dot failed (exit 1)"), bad.getMessage());
  }

  static boolean onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) return false;
    for (String d : path.split(java.io.File.pathSeparator)) if (Files.isExecutable(Path.of(d, tool))) return true;
    return false;
  }
}
