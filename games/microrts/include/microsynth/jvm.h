/*
 * A Java VM hosted by the library (the JNI invocation API), to play
 * official matches of programs against Java bots (CoacAI, mayari, ...) from
 * C: the synthesis engine evaluates against COAC this way.
 *
 * The VM runs the official harness: microsynth-harness.jar (whose runner
 * builds the class path from the harness cache: microrts.jar, microsynth.jar
 * when found, the competition bot jars). libjvm is loaded at run time, so
 * the library does not depend on a JDK unless this is used.
 *
 * The JNI allows one VM per process, created once and never re-created:
 * the first ms_jvm_open starts it (or attaches to the VM that already hosts
 * this process, when the library runs inside Java); later handles share
 * it; ms_jvm_close frees the handle, not the VM. Matches may be played from
 * several threads at once (one handle, on its own context, per thread).
 *
 * The JVM takes SIGSEGV in normal operation: a host program must not
 * replace its handlers (test frameworks such as cmocka do, and crash it).
 */
#ifndef MICROSYNTH_JVM_H
#define MICROSYNTH_JVM_H

#include <stdint.h>
#include "microsynth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ms_jvm ms_jvm;

/** Options of ms_jvm_open; zero-initialise, set version. */
typedef struct ms_jvm_options {
	int version;              /**< MS_JVM_OPTIONS_VERSION */
	const char *harness_jar;  /**< microsynth-harness.jar (required) */
	const char *harness_dir;  /**< harness cache; NULL: $MICROSYNTH_HARNESS or ~/.cache/microsynth/harness */
	const char *java_home;    /**< NULL: $JAVA_HOME, else the `java` found on PATH */
	const char *const *vm_options; /**< extra VM options ("-Xmx2g"), n_vm_options of them */
	int n_vm_options;
} ms_jvm_options;

/**
 * Zero-initialises `opts` and sets its version (MS_JVM_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_jvm_options_init(ms_jvm_options *opts, unsigned int version);

#define MS_JVM_OPTIONS_VERSION 1

/**
 * Starts (or joins) the process's VM. MS_ENOTFOUND when no libjvm or jar
 * is found, MS_ERROR when the VM does not start; the message says which.
 */
MS_EXTERN int ms_jvm_open(ms_ctx *ctx, ms_jvm **out, const ms_jvm_options *opts);

/** Frees the handle (the VM lives on, as the JNI requires). */
MS_EXTERN void ms_jvm_close(ms_jvm *jvm);

/** One official match; zero-initialise, set version and the names. */
typedef struct ms_jvm_match_options {
	int version;         /**< MS_JVM_MATCH_OPTIONS_VERSION */
	const char *map;     /**< path, or name inside the harness's maps/ */
	const char *p0, *p1; /**< class name, program:FILE or socket:HOST:PORT */
	int utt;             /**< unit type table 1..3 (0: 2) */
	int conflict;        /**< move conflict policy 1..3 (0: 1) */
	int max_cycles;      /**< 0: 5000 */
	int time_budget;     /**< ms per decision for budgeted bots (0: 100) */
	int partially_observable;
	int seeded;          /**< seed the engine's and the AIs' generators with `seed` */
	int64_t seed;
	const char *trace;   /**< write the official trace here (NULL: none) */
	int hang_ms;         /**< a getAction still running after this many ms loses as timed out (0: no limit) */
} ms_jvm_match_options;

/**
 * Zero-initialises `opts` and sets its version (MS_JVM_MATCH_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_jvm_match_options_init(ms_jvm_match_options *opts, unsigned int version);

#define MS_JVM_MATCH_OPTIONS_VERSION 1

typedef struct ms_jvm_result {
	int winner;  /**< 0, 1, or -1 for a draw */
	int cycles;
	int crashed; /**< player whose AI threw (it lost), or -1 */
	int timed_out;
} ms_jvm_result;

/**
 * Plays one official match in the VM (the harness's own loop, as
 * `microsynth match` plays it). MS_EINVAL for bad settings or unknown AIs
 * (the message is the harness's), MS_ERROR when the VM fails.
 */
MS_EXTERN int ms_jvm_match(ms_jvm *jvm, const ms_jvm_match_options *m, ms_jvm_result *res);

#ifdef __cplusplus
}
#endif
#endif
