package dev.jaxc.backend.llvm.plan;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Var;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A plan drawn as a Graphviz DOT graph ({@code jaxc inspect --graph}), so a user sees at a glance
 * where a model spends memory passes and workspace: each step of the schedule is a box (a cluster)
 * holding the equations it evaluates — a fusion group's fused chain, a kernel with the producers
 * fused into its operands and its epilogue, a multi-output kernel's stored roots, a row loop's
 * members — and each materialised value is a node with its type, size and place (input k,
 * output k, or its workspace offset). Edges run from the values a step reads to the equations that
 * read them, and from the equations that store values to those values. The bodies of {@code cond},
 * {@code while} and {@code scan} are drawn inside their step, each as the plan it is, with its own
 * inputs and outputs.
 */
public final class PlanGraph {
  private final StringBuilder out = new StringBuilder();
  private int ids;
  private int clusters;

  private PlanGraph() {}

  /** The DOT text of {@code plan}; {@code title} heads the drawing (the model's file name). */
  public static String dot(Plan plan, String title) {
    PlanGraph g = new PlanGraph();
    g.out.append("digraph plan {\n");
    g.out.append("  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, labelloc=t, label=")
        .append(quote(title + ": " + plan.steps().size() + (plan.steps().size() == 1 ? " step" : " steps") + ", workspace " + size(plan.workspaceBytes())))
        .append("];\n");
    g.out.append("  node [fontname=\"Helvetica\", fontsize=10];\n");
    g.out.append("  edge [arrowsize=0.6];\n");
    g.plan(plan, "  ");
    g.out.append("}\n");
    return g.out.toString();
  }

  /** The nodes of one plan's values: per variable, its node id (drawn on first use). */
  private final class Scope {
    final Plan plan;
    final String indent;
    final Map<Var, String> values = new IdentityHashMap<>();
    /**
     * Value nodes and edges, written after the steps at the scope's own level: Graphviz puts a
     * node (and an edge's ends) in every cluster that mentions it.
     */
    final StringBuilder defs = new StringBuilder();
    final List<String> edges = new ArrayList<>();

    Scope(Plan plan, String indent) {
      this.plan = plan;
      this.indent = indent;
    }

    /** The node of materialised value {@code v}, drawn where it is first needed. */
    String value(Var v) {
      String id = values.get(v);
      if (id != null) return id;
      id = id();
      values.put(v, id);
      Buffer b = plan.buffer(v);
      String where = b instanceof Buffer.Input in ? "input " + in.index()
          : b instanceof Buffer.Output o ? "output " + o.index()
          : "workspace +" + ((Buffer.Temp) b).offset();
      String fill = b instanceof Buffer.Temp ? "#fff4d6" : "#e3f0ff";
      defs.append(indent).append(id).append(" [shape=note, style=filled, fillcolor=\"").append(fill)
          .append("\", label=").append(quote(v.name() + ": " + v.type().text() + "\n" + size(b.bytes()) + ", " + where))
          .append("];\n");
      return id;
    }
  }

  private void plan(Plan plan, String indent) {
    Scope s = new Scope(plan, indent);
    for (Var v : plan.inputs()) s.value(v);
    int k = 0;
    for (Step step : plan.steps()) step(s, step, k++, indent);
    for (Atom a : plan.outputs()) if (a instanceof Var v && plan.isMaterialised(v)) s.value(v);
    out.append(s.defs);
    for (String e : s.edges) out.append(indent).append(e).append(";\n");
  }

  private void step(Scope s, Step step, int index, String indent) {
    if (step instanceof Step.Fusion f) {
      group(s, "fusion " + index + " (one loop over " + f.roots().get(0).type().text() + ")", "#f2f2f2", f.roots(), null,
          indent);
    } else if (step instanceof Step.Kernel k) {
      kernel(s, k, List.of(), "kernel " + index, indent);
    } else if (step instanceof Step.MultiOutput m) {
      kernel(s, m.kernel(), m.roots(), "multi-output kernel " + index, indent);
    } else if (step instanceof Step.Rows r) {
      String c = cluster(indent, "row loop " + index + " over " + r.rows() + " (each member per row)", "#eef7ee");
      int j = 0;
      for (Step member : r.steps()) step(s, member, j++, indent + "  ");
      out.append(indent).append("}\n");
    } else if (step instanceof Step.CopyOut c) {
      String to = id();
      out.append(indent).append(to).append(" [shape=box, style=dashed, label=")
          .append(quote("copy to output " + c.output())).append("];\n");
      if (c.source() instanceof Var v && s.plan.isMaterialised(v)) edge(s, s.value(v), to);
    } else {
      throw new AssertionError(step);
    }
  }

  /** A kernel step (with the roots a multi-output kernel also stores). */
  private void kernel(Scope s, Step.Kernel k, List<Var> roots, String title, String indent) {
    Eqn e = k.eqn();
    ControlFlowPlan cf = s.plan.isControlFlow(e) ? s.plan.controlFlow(e) : null;
    List<Var> stored = new ArrayList<>(roots);
    if (k.epilogue() != null) stored.add(k.epilogue());
    else stored.addAll(e.outs());
    Buffer.Temp scratch = s.plan.scratch(e);
    String label = title + ": " + e.primitive() + (k.epilogue() != null ? " with its epilogue" : "")
        + (scratch == null ? "" : ", scratch " + size(scratch.bytes()) + " at workspace +" + scratch.offset())
        + (cf == null ? "" : ", region " + size(cf.bytes()));
    if (cf == null) {
      group(s, label, "#fde8e8", stored, e, indent);
      return;
    }
    // Control flow: the equation, then each nested plan in its own box.
    String inner = indent + "  ";
    cluster(indent, label, "#f3e8fd");
    Map<Eqn, String> nodes = members(s, stored, e, inner);
    String node = nodes.get(e);
    List<Plan> bodies = new ArrayList<>();
    List<String> names = new ArrayList<>();
    if (cf instanceof ControlFlowPlan.Cond c) {
      for (int b = 0; b < c.branches().size(); b++) {
        bodies.add(c.branches().get(b));
        names.add("branch " + b);
      }
    } else if (cf instanceof ControlFlowPlan.While w) {
      bodies.add(w.cond());
      names.add("while condition");
      bodies.add(w.body());
      names.add("while body");
    } else if (cf instanceof ControlFlowPlan.Scan sc) {
      bodies.add(sc.body());
      names.add("scan body");
    } else {
      throw new AssertionError(cf);
    }
    for (int b = 0; b < bodies.size(); b++) {
      Plan body = bodies.get(b);
      cluster(inner, names.get(b) + ": " + body.steps().size() + (body.steps().size() == 1 ? " step" : " steps"), "#ffffff");
      String anchor = id();
      out.append(inner).append("  ").append(anchor).append(" [shape=point, width=0.05];\n");
      plan(body, inner + "  ");
      out.append(inner).append("}\n");
      s.edges.add(node + " -> " + anchor + " [style=dotted, arrowhead=none]");
    }
    out.append(indent).append("}\n");
  }

  /** A box holding the equations that compute {@code stored} (and {@code kernel}, if any). */
  private void group(Scope s, String title, String color, List<Var> stored, Eqn kernel, String indent) {
    cluster(indent, title, color);
    members(s, stored, kernel, indent + "  ");
    out.append(indent).append("}\n");
  }

  /**
   * Draws the equations evaluated for {@code stored}: their producers and, transitively, the
   * producers of every operand that has no buffer (fused in). Edges come from the buffers read
   * and go to the buffers stored; returns each equation's node.
   */
  private Map<Eqn, String> members(Scope s, List<Var> stored, Eqn kernel, String indent) {
    Set<Eqn> eqns = new LinkedHashSet<>();
    if (kernel != null) eqns.add(kernel);
    List<Var> work = new ArrayList<>(stored);
    Set<Var> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    while (!work.isEmpty()) {
      Var v = work.remove(work.size() - 1);
      if (!seen.add(v)) continue;
      Producer p = producerOf(s.plan, v);
      if (p == null) continue;
      if (!eqns.add(p.eqn())) continue;
      for (Atom a : p.eqn().ins()) if (a instanceof Var u && !s.plan.isMaterialised(u)) work.add(u);
    }
    if (kernel != null)
      for (Atom a : kernel.ins()) if (a instanceof Var u && !s.plan.isMaterialised(u)) collect(s.plan, u, eqns);
    Map<Eqn, String> nodes = new IdentityHashMap<>();
    List<Eqn> order = new ArrayList<>(eqns);
    java.util.Collections.reverse(order);  // producers first
    for (Eqn e : order) {
      String id = id();
      nodes.put(e, id);
      String line = e.span().line() > 0 ? "line " + e.span().line() + ": " : "";
      out.append(indent).append(id).append(" [shape=box, style=\"rounded,filled\", fillcolor=white")
          .append(e == kernel ? ", penwidth=2" : "").append(", label=")
          .append(quote(line + e.primitive() + " -> " + outs(e))).append("];\n");
    }
    Map<Var, Eqn> bound = new IdentityHashMap<>();
    for (Eqn e : eqns) for (Var v : e.outs()) bound.put(v, e);
    for (Eqn e : order) {
      Set<String> from = new LinkedHashSet<>();
      for (Atom a : e.ins()) {
        if (!(a instanceof Var v)) continue;
        Eqn p = bound.get(v);
        if (p != null && !s.plan.isMaterialised(v)) from.add(nodes.get(p));
        else if (s.plan.isMaterialised(v)) from.add(s.value(v));
      }
      for (String f : from) edge(s, f, nodes.get(e));
    }
    for (Var v : stored) {
      Eqn p = bound.get(v);
      if (p != null && s.plan.isMaterialised(v)) edge(s, nodes.get(p), s.value(v));
    }
    if (kernel != null)
      for (Var v : kernel.outs()) if (s.plan.isMaterialised(v) && !stored.contains(v)) edge(s, nodes.get(kernel), s.value(v));
    return nodes;
  }

  /** Adds the fused chain behind {@code v} (no buffer) to {@code eqns}. */
  private static void collect(Plan plan, Var v, Set<Eqn> eqns) {
    Producer p = producerOf(plan, v);
    if (p == null || !eqns.add(p.eqn())) return;
    for (Atom a : p.eqn().ins()) if (a instanceof Var u && !plan.isMaterialised(u)) collect(plan, u, eqns);
  }

  private static Producer producerOf(Plan plan, Var v) {
    for (Var in : plan.inputs()) if (in == v) return null;
    return plan.producer(v);
  }

  private String cluster(String indent, String label, String color) {
    String name = "cluster_" + clusters++;
    out.append(indent).append("subgraph ").append(name).append(" {\n");
    out.append(indent).append("  style=filled; color=\"#999999\"; fillcolor=\"").append(color).append("\"; label=")
        .append(quote(label)).append(";\n");
    return name;
  }

  private static void edge(Scope s, String from, String to) {
    s.edges.add(from + " -> " + to);
  }

  private String id() {
    return "n" + ids++;
  }

  private static String outs(Eqn e) {
    StringBuilder sb = new StringBuilder();
    for (Var v : e.outs()) {
      if (sb.length() > 0) sb.append(", ");
      sb.append(v.name()).append(':').append(v.type().text());
    }
    return sb.toString();
  }

  /** Bytes in binary units, three significant digits. */
  static String size(long bytes) {
    if (bytes < 1024) return bytes + " B";
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double x = bytes;
    int u = -1;
    while (x >= 1024 && u < units.length - 1) {
      x /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, x < 10 ? "%.2f %s" : x < 100 ? "%.1f %s" : "%.0f %s", x, units[u]);
  }

  /** A DOT string literal. */
  private static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
  }
}
