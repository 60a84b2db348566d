package ai.microsynth;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The portfolio the drop-in bot plays on a map its index has no program for
 * (docs/portfolio.md): the index's `unseen` template (settings only), every
 * program the index ships (switches give each of theirs) as candidates, and
 * the nearest known map's program as the opening. The native side plays it:
 * it simulates the candidates against its field while the opening plays.
 */
final class Portfolio {
    private Portfolio() {
    }

    /** A spec's text: a -text: spec carries it, a file spec names it. */
    static String textOf(String spec, String prefix) throws IOException {
        String inline = prefix + "-text:";
        if (spec.startsWith(inline)) {
            return spec.substring(inline.length());
        }
        String file = spec.substring(prefix.length() + 1).trim();
        return new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8);
    }

    /** The programs of a switch's text, each as {name, text}, and its opening's name at [0][0] of `before`. */
    static List<String[]> switchPrograms(String text, String[] before) {
        List<String[]> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].endsWith("\r")) {
                lines[i] = lines[i].substring(0, lines[i].length() - 1);
            }
        }
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].trim();
            if (!t.startsWith("program") && !t.startsWith("before")) {
                continue;
            }
            String[] w = t.split("\\s+");
            if (w.length == 2 && w[0].equals("program")) {
                StringBuilder sb = new StringBuilder();
                int j = i + 1;
                while (j < lines.length && !lines[j].equals("end")) {
                    sb.append(lines[j]).append('\n');
                    j++;
                }
                out.add(new String[] {w[1], sb.toString()});
                i = j;
            } else if (w.length == 2 && w[0].equals("before")) {
                before[0] = w[1];
            }
        }
        return out;
    }

    /** A program's text without comments and blank lines: two copies of one program count once. */
    private static String key(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        int at = 0;
        while (at < text.length()) {
            int nl = text.indexOf('\n', at);
            int end = nl < 0 ? text.length() : nl;
            String t = text.substring(at, end).trim();
            if (!t.isEmpty() && t.charAt(0) != '#') {
                sb.append(t).append('\n');
            }
            at = end + 1;
        }
        return sb.toString();
    }

    private static String name(String spec) {
        int colon = spec.indexOf(':');
        String s = spec.substring(colon + 1);
        if (spec.startsWith("program-text:") || spec.startsWith("switch-text:")) {
            s = spec.substring(0, colon).replace("-text", "");
        }
        s = s.substring(s.lastIndexOf('/') + 1).replaceAll("\\.(ms|switch|txt)$", "");
        s = s.replaceAll("[^A-Za-z0-9._-]", "_");
        return s.length() > 40 ? s.substring(0, 40) : s;
    }

    /** The candidates of a list of specs, as program blocks, and the name each spec's opening got. */
    static final class Candidates {
        final String block;
        final Map<String, String> opening;

        Candidates(String block, Map<String, String> opening) {
            this.block = block;
            this.opening = opening;
        }
    }

    // The last lists of specs seen and their candidates: building them reads
    // and compares every program, too slow for a decision (tens of ms).
    private static final Map<List<String>, Candidates> CACHE = new LinkedHashMap<>();

    /**
     * One program block per distinct program text of `specs` (native specs:
     * program-text:, program:, switch-text:, switch:; others are skipped),
     * named after the spec; a switch gives each of its programs.
     */
    static Candidates candidates(List<String> specs, List<String> names) throws IOException {
        synchronized (CACHE) {
            Candidates c = CACHE.get(specs);
            if (c != null) {
                return c;
            }
        }
        StringBuilder sb = new StringBuilder();
        Map<String, String> opening = new HashMap<>();
        Map<String, String> byKey = new HashMap<>();
        Set<String> used = new HashSet<>();
        for (int i = 0; i < specs.size(); i++) {
            String spec = specs.get(i);
            List<String[]> progs = new ArrayList<>();
            String[] before = {null};
            if (spec.startsWith("switch")) {
                progs = switchPrograms(textOf(spec, "switch"), before);
            } else if (spec.startsWith("program")) {
                progs.add(new String[] {null, textOf(spec, "program")});
            } else {
                continue; // a native bot: not a program to simulate
            }
            String base = names != null ? name(names.get(i)) : name(spec);
            for (String[] p : progs) {
                String k = key(p[1]);
                String n = byKey.get(k);
                if (n == null) {
                    n = base + (p[0] != null ? "." + p[0] : "");
                    for (int j = 2; !used.add(n); j++) {
                        n = base + "." + j;
                    }
                    byKey.put(k, n);
                    sb.append("program ").append(n).append('\n').append(p[1]);
                    if (!p[1].endsWith("\n")) {
                        sb.append('\n');
                    }
                    sb.append("end\n");
                }
                if (before[0] == null || before[0].equals(p[0])) {
                    opening.putIfAbsent(spec, n);
                }
            }
        }
        Candidates c = new Candidates(sb.toString(), opening);
        synchronized (CACHE) {
            if (CACHE.size() >= 4) {
                CACHE.clear();
            }
            CACHE.put(new ArrayList<>(specs), c);
        }
        return c;
    }

    /**
     * The portfolio text: `template` (its settings), `edition` unless the
     * template sets one, the candidates of `specs`, and `opening` (one of
     * `specs`) as the opening. `names` (may be null) are the specs as the
     * index writes them, for the programs' names.
     */
    static String assemble(String template, List<String> specs, List<String> names, String opening, int edition)
            throws IOException {
        Candidates c = candidates(specs, names);
        StringBuilder sb = new StringBuilder(template.length() + c.block.length() + 100);
        sb.append(template.trim()).append('\n');
        if (!Pattern.compile("^\\s*edition\\s", Pattern.MULTILINE).matcher(template).find()) {
            sb.append("edition ").append(edition).append('\n');
        }
        sb.append(c.block);
        String first = c.opening.get(opening);
        if (first != null) {
            sb.append("before ").append(first).append('\n');
        }
        return sb.toString();
    }

    /**
     * The edition of the harness's scripted bots: 2023 when LightRush's
     * workersBehavior takes a GameState (the current official repository),
     * else 2022 (docs/harness.md section 8).
     */
    static int harnessEdition() {
        try {
            Class<?> k = Class.forName("ai.abstraction.LightRush");
            for (Method m : k.getDeclaredMethods()) {
                Class<?>[] p = m.getParameterTypes();
                if (m.getName().equals("workersBehavior") && p.length == 3
                        && p[2].getName().equals("rts.GameState")) {
                    return 2023;
                }
            }
        } catch (ClassNotFoundException | LinkageError | SecurityException e) {
            // no LightRush to look at: the older build's behaviour
        }
        return 2022;
    }
}
