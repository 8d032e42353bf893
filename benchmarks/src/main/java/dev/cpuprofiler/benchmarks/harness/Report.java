package dev.cpuprofiler.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;

/** The Markdown results: sections as they finish, and the goals side by side at the end. */
final class Report {

    enum Verdict {
        MET("met"), MISSED("**missed**"), UNCLEAR("unclear (noise)"), NOT_MEASURED("not measured"),
        /** A figure reported for information: no goal to meet. */
        INFO("informational");

        final String text;

        Verdict(String text) {
            this.text = text;
        }
    }

    record Goal(String goal, String target, String measured, Verdict verdict, String why) {
    }

    private final List<String> sections = new ArrayList<>();
    private final List<Goal> goals = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    synchronized void section(String markdown) {
        sections.add(markdown);
        System.out.println();
        System.out.println(markdown);
    }

    synchronized void goal(String goal, String target, String measured, Verdict verdict, String why) {
        goals.add(new Goal(goal, target, measured, verdict, why));
    }

    synchronized void problem(String text) {
        problems.add(text);
        System.out.println("[harness] " + text);
    }

    synchronized String render(String header) {
        StringBuilder md = new StringBuilder(header).append('\n');
        md.append("## Goals\n\n| goal | target | measured | verdict | why / notes |\n|---|---|---|---|---|\n");
        for (Goal g : goals) {
            md.append("| ").append(g.goal()).append(" | ").append(g.target()).append(" | ").append(g.measured())
                    .append(" | ").append(g.verdict().text).append(" | ").append(g.why()).append(" |\n");
        }
        md.append('\n');
        for (String s : sections) {
            md.append(s).append('\n');
        }
        if (!problems.isEmpty()) {
            md.append("## Skipped or failed here\n\n");
            for (String p : problems) {
                md.append("- ").append(p).append('\n');
            }
            md.append('\n');
        }
        return md.toString();
    }

    static String num(double v, int decimals) {
        if (Double.isNaN(v)) {
            return "–";
        }
        return String.format(java.util.Locale.ROOT, "%." + decimals + "f", v);
    }
}
