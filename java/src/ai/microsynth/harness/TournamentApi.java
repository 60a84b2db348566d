package ai.microsynth.harness;

import java.io.Writer;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Calls the official tournaments in whichever of their two API shapes the
 * harness jar has (see docs/harness.md, "A user's own harness"):
 * <ul>
 * <li>{@code static}: the gym-microrts build (2022) keeps the older code, where
 * {@code RoundRobinTournament.runTournament(List ais, int only, List maps, ...)}
 * and {@code FixedOpponentsTournament.runTournament(List ais, List opponents,
 * List maps, ...)} are static;</li>
 * <li>{@code instance}: the official repository since its Nov 2019 refactor
 * (a common {@code tournaments.Tournament} superclass) takes the AI lists in
 * the constructor, {@code new RoundRobinTournament(ais)}, {@code new
 * FixedOpponentsTournament(ais, opponents)}, and {@code runTournament} is an
 * instance method taking the remaining parameters, in the same order.</li>
 * </ul>
 * Compiled against no tournament class, so one runner jar works on both
 * builds; the shape is chosen from the loaded class, never guessed from a
 * version string.
 */
final class TournamentApi {
    private TournamentApi() {
    }

    static final String ROUND_ROBIN = "tournaments.RoundRobinTournament";
    static final String FIXED_OPPONENTS = "tournaments.FixedOpponentsTournament";

    /** The shape found and the class it was found on. */
    static final class Shape {
        final boolean isStatic;
        final Class<?> cls;
        final Method method;
        final Constructor<?> constructor; // null for the static shape

        Shape(Class<?> cls, Method method, Constructor<?> constructor) {
            this.cls = cls;
            this.method = method;
            this.constructor = constructor;
            this.isStatic = constructor == null;
        }

        /** "static" or "instance", as the runners print it. */
        String name() {
            return isStatic ? "static" : "instance";
        }
    }

    /**
     * Parameters of runTournament after the AI lists, identical in both
     * shapes: for the round robin (int only, List maps, ..., String rwFolder),
     * for fixed opponents the same without {@code only} and {@code selfMatches}.
     */
    static Class<?>[] restTypes(boolean roundRobin, Class<?> utt) {
        List<Class<?>> t = new ArrayList<>();
        if (roundRobin) {
            t.add(int.class); // playOnlyGamesInvolvingThisAI
        }
        t.add(List.class); // maps
        t.addAll(Arrays.asList(int.class, int.class, int.class, int.class)); // iterations, maxGameLength, time, iterations budget
        t.addAll(Arrays.asList(long.class, long.class)); // pre-game budgets: first time in a map, later
        t.add(boolean.class); // fullObservability
        if (roundRobin) {
            t.add(boolean.class); // selfMatches
        }
        t.addAll(Arrays.asList(boolean.class, boolean.class, boolean.class)); // timeoutCheck, runGC, preAnalysis
        t.add(utt);
        t.add(String.class); // traceOutputFolder
        t.addAll(Arrays.asList(Writer.class, Writer.class, String.class)); // out, progress, read/write folder
        return t.toArray(new Class<?>[0]);
    }

    /**
     * Finds the shape of tournament class {@code name} as {@code loader}
     * sees it. {@code lists} is the number of AI lists (1 round robin, 2
     * fixed opponents); {@code utt} the loaded rts.units.UnitTypeTable.
     */
    static Shape find(ClassLoader loader, String name, Class<?> utt) throws ClassNotFoundException {
        boolean rr = name.equals(ROUND_ROBIN);
        int lists = rr ? 1 : 2;
        Class<?> cls = Class.forName(name, true, loader);
        Class<?>[] rest = restTypes(rr, utt);
        Class<?>[] all = new Class<?>[lists + rest.length];
        Class<?>[] ctor = new Class<?>[lists];
        for (int i = 0; i < lists; i++) {
            all[i] = List.class;
            ctor[i] = List.class;
        }
        System.arraycopy(rest, 0, all, lists, rest.length);
        try {
            Method m = cls.getMethod("runTournament", all);
            if (Modifier.isStatic(m.getModifiers())) {
                return new Shape(cls, m, null);
            }
        } catch (NoSuchMethodException e) {
            // not the static shape; try the instance shape below
        }
        try {
            Method m = cls.getMethod("runTournament", rest);
            Constructor<?> c = cls.getConstructor(ctor);
            if (!Modifier.isStatic(m.getModifiers())) {
                return new Shape(cls, m, c);
            }
        } catch (NoSuchMethodException e) {
            // neither shape: reported below
        }
        throw new IllegalStateException(name + " (" + where(cls) + ") has neither a static runTournament("
                + all.length + " parameters) nor a (" + lists + " List) constructor with an instance runTournament("
                + rest.length + " parameters); this harness's tournament API is not supported");
    }

    /** Jar (file name) or directory a loaded class came from; here as both jars hold this class. */
    static String where(Class<?> c) {
        java.security.CodeSource cs = c.getProtectionDomain() == null ? null : c.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            return "jdk";
        }
        String path = cs.getLocation().getPath();
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /**
     * One call of runTournament with its parameters named: the runners set
     * what they choose and leave the rest at the GUI's defaults, and this
     * class puts them in the positional order of {@link #restTypes}.
     */
    static final class Call {
        private final String cls;
        private final List<?>[] lists;
        private List<String> maps = new ArrayList<>();
        private int iterations = 1, maxCycles = 3000, timeBudget = 100, iterationsBudget = -1;
        private long pregameFirst, pregameLater;
        private boolean fullObservability = true, selfMatches, timeoutCheck = true, runGc, preAnalysis;
        private Object utt;
        private String traces, rwFolder;
        private Writer out, progress;

        private Call(String cls, List<?>... lists) {
            this.cls = cls;
            this.lists = lists;
        }

        /** Every pairing of {@code ais} (only = -1: every game). */
        static Call roundRobin(List<?> ais) {
            return new Call(ROUND_ROBIN, ais);
        }

        /** Each of {@code ais} against each of {@code opponents}, the AI first (player 0). */
        static Call fixedOpponents(List<?> ais, List<?> opponents) {
            return new Call(FIXED_OPPONENTS, ais, opponents);
        }

        Call maps(List<String> v) { maps = v; return this; }
        Call iterations(int v) { iterations = v; return this; }
        Call maxCycles(int v) { maxCycles = v; return this; }
        Call utt(Object table) { utt = table; return this; }
        Call selfMatches(boolean v) { selfMatches = v; return this; }
        Call runGc(boolean v) { runGc = v; return this; }
        Call traces(String dir) { traces = dir; return this; }
        Call out(Writer w) { out = w; return this; }
        Call progress(Writer w) { progress = w; return this; }
        Call rwFolder(String dir) { rwFolder = dir; return this; }

        /** Budgets and rules: per-decision time and iterations, pre-game analysis (ms; -1: none), observability, time-out checks. */
        Call rules(int time, int iterationsPerDecision, long pregameMs, boolean partiallyObservable, boolean checkTimeouts) {
            timeBudget = time;
            iterationsBudget = iterationsPerDecision;
            preAnalysis = pregameMs >= 0;
            pregameFirst = pregameLater = Math.max(pregameMs, 0);
            fullObservability = !partiallyObservable;
            timeoutCheck = checkTimeouts;
            return this;
        }

        /** The shared runner options' budgets and rules (the later games' pre-game budget included). */
        Call rules(Options.Shared sh) {
            rules(sh.timeBudget, sh.iterationsBudget, sh.pregameMs, sh.partiallyObservable, sh.timeoutCheck);
            if (preAnalysis) {
                pregameLater = sh.pregameLater();
            }
            return this;
        }

        /** Pre-game budgets: the first game of an AI on a map, and its later games. */
        Call pregame(long first, long later) {
            pregameFirst = first;
            pregameLater = later;
            return this;
        }

        /** This call's tournament class name. */
        String className() {
            return cls;
        }

        /** The shape of this call's class as {@code loader} sees it ({@code uttClass}: its rts.units.UnitTypeTable). */
        Shape shape(ClassLoader loader, Class<?> uttClass) throws ClassNotFoundException {
            return find(loader, cls, uttClass);
        }

        /** Runs the tournament in {@code shape}; a null log or progress writer is a discarded one. */
        void run(Shape shape) throws Exception {
            boolean rr = lists.length == 1;
            List<Object> rest = new ArrayList<>();
            if (rr) {
                rest.add(-1);
            }
            rest.addAll(Arrays.<Object>asList(maps, iterations, maxCycles, timeBudget, iterationsBudget, pregameFirst,
                    pregameLater, fullObservability));
            if (rr) {
                rest.add(selfMatches);
            }
            rest.addAll(Arrays.<Object>asList(timeoutCheck, runGc, preAnalysis, utt, traces,
                    out != null ? out : new java.io.StringWriter(), progress != null ? progress : new java.io.StringWriter(),
                    rwFolder));
            TournamentApi.run(shape, lists, rest.toArray());
        }
    }

    /**
     * Runs a tournament of the given shape: the AI lists go to the
     * constructor (instance shape) or first in the call (static shape),
     * {@code rest} follows in the order of {@link #restTypes}. An exception
     * thrown by the tournament is rethrown as it is.
     */
    static void run(Shape shape, List<?>[] lists, Object[] rest) throws Exception {
        try {
            if (shape.isStatic) {
                Object[] all = new Object[lists.length + rest.length];
                System.arraycopy(lists, 0, all, 0, lists.length);
                System.arraycopy(rest, 0, all, lists.length, rest.length);
                shape.method.invoke(null, all);
            } else {
                Object t = shape.constructor.newInstance((Object[]) lists);
                shape.method.invoke(t, rest);
            }
        } catch (InvocationTargetException e) {
            throw thrown(e);
        }
    }

    /**
     * What a reflective call threw, to be rethrown as if the call had been
     * direct: its Exception is returned, its Error thrown from here.
     */
    static Exception thrown(InvocationTargetException e) {
        Throwable c = e.getCause();
        if (c instanceof Error) {
            throw (Error) c;
        }
        return c instanceof Exception ? (Exception) c : e;
    }
}
