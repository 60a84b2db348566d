/*
 * The JNI entry points of ai.microsynth.MicrosynthAI (its static native
 * methods). They convert Java arrays and strings, call jni_ai.c, and map
 * status codes to Java exceptions in one place (throw_status). Only the
 * constructor path (nCreate) and the bot setter (nSetBot) throw; the
 * per-decision calls return a status and the Java side reads nError, so
 * getAction never has an exception to catch from here.
 *
 * Handles are jlong-encoded pointers to ms_jni_ai; a handle of 0 is
 * refused (the Java side closes a handle by setting it to 0).
 */
#include <jni.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/microrts.h"
#include "microsynth/bots.h"
#include "microsynth/rts_synth.h"
#include "jni_ai.h"

#define ERR_SIZE 512

/* The native methods of ai.microsynth.MicrosynthAI (what `javac -h` would
 * declare for it; a mismatch shows as UnsatisfiedLinkError in the tests). */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved);
JNIEXPORT jlong JNICALL Java_ai_microsynth_MicrosynthAI_nCreate(JNIEnv *env, jclass cls, jstring spec, jintArray utt,
		jobjectArray names, jlong seed);
JNIEXPORT void JNICALL Java_ai_microsynth_MicrosynthAI_nFree(JNIEnv *env, jclass cls, jlong h);
JNIEXPORT void JNICALL Java_ai_microsynth_MicrosynthAI_nSetBot(JNIEnv *env, jclass cls, jlong h, jstring spec);
JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nSetTable(JNIEnv *env, jclass cls, jlong h, jintArray utt,
		jobjectArray names);
JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nReset(JNIEnv *env, jclass cls, jlong h);
JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nSetMap(JNIEnv *env, jclass cls, jlong h, jint w, jint hh,
		jbyteArray terrain);
JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nDecide(JNIEnv *env, jclass cls, jlong h, jint player,
		jintArray state, jint len, jintArray out);
JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nGameOver(JNIEnv *env, jclass cls, jlong h, jint winner);
JNIEXPORT jstring JNICALL Java_ai_microsynth_MicrosynthAI_nError(JNIEnv *env, jclass cls, jlong h);
JNIEXPORT jstring JNICALL Java_ai_microsynth_MicrosynthAI_nBotName(JNIEnv *env, jclass cls, jlong h);
JNIEXPORT jlong JNICALL Java_ai_microsynth_MicrosynthAI_nDecideNanos(JNIEnv *env, jclass cls, jlong h);
JNIEXPORT void JNICALL Java_ai_microsynth_MicrosynthAI_nCounters(JNIEnv *env, jclass cls, jlong h, jlongArray out);
JNIEXPORT jstring JNICALL Java_ai_microsynth_MicrosynthAI_nPregame(JNIEnv *env, jclass cls, jlong h, jintArray state,
		jint len, jobjectArray candidates, jobjectArray field, jlongArray settings, jdoubleArray figures);

/* Java's exception for a status code. */
static const char *exception_class(int rc)
{
	switch (rc) {
	case MS_ENOMEM:
		return "java/lang/OutOfMemoryError";
	case MS_EINVAL:
	case MS_EPARSE:
	case MS_ENOTFOUND:
	case MS_ERANGE:
	case MS_EIO:
		return "java/lang/IllegalArgumentException";
	default:
		return "java/lang/IllegalStateException";
	}
}

static void throw_status(JNIEnv *env, int rc, const char *msg)
{
	char text[ERR_SIZE + 64];
	jclass k;

	if ((*env)->ExceptionCheck(env))
		return; /* keep the first one */
	snprintf(text, sizeof(text), "microsynth: %s (%s)", msg && msg[0] ? msg : "failure", ms_status_name(rc));
	k = (*env)->FindClass(env, exception_class(rc));
	if (k)
		(*env)->ThrowNew(env, k, text);
}

static ms_jni_ai *handle(jlong h)
{
	return (ms_jni_ai *)(intptr_t)h;
}

/* A Java string as modified UTF-8, released with release_utf. */
static const char *get_utf(JNIEnv *env, jstring s)
{
	return s ? (*env)->GetStringUTFChars(env, s, NULL) : NULL;
}

static void release_utf(JNIEnv *env, jstring s, const char *c)
{
	if (s && c)
		(*env)->ReleaseStringUTFChars(env, s, c);
}

static char *dup_string(const char *c)
{
	size_t n = strlen(c) + 1;
	char *d = malloc(n);

	return d ? memcpy(d, c, n) : NULL;
}

/*
 * The table arrays as C values: ints copied into `*ints` and names
 * duplicated into `*names` (both malloc'd; free with free_table).
 */
typedef struct table_args {
	int32_t *ints;
	int len;
	char **names;
	int n_names;
} table_args;

static void free_table(table_args *t)
{
	for (int i = 0; i < t->n_names; i++)
		free(t->names[i]);
	free(t->names);
	free(t->ints);
	memset(t, 0, sizeof(*t));
}

/* 0, or a status with `err` filled (no Java exception pending on return). */
static int get_table(JNIEnv *env, jintArray utt, jobjectArray names, table_args *t, char *err, size_t err_size)
{
	jsize n, k;

	memset(t, 0, sizeof(*t));
	if (!utt || !names) {
		snprintf(err, err_size, "unit type table: no %s array", utt ? "name" : "stats");
		return MS_EINVAL;
	}
	n = (*env)->GetArrayLength(env, utt);
	k = (*env)->GetArrayLength(env, names);
	t->ints = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
	t->names = calloc((size_t)(k > 0 ? k : 1), sizeof(char *));
	if (!t->ints || !t->names)
		goto nomem;
	(*env)->GetIntArrayRegion(env, utt, 0, n, (jint *)t->ints);
	t->len = (int)n;
	for (jsize i = 0; i < k; i++) {
		jstring s = (jstring)(*env)->GetObjectArrayElement(env, names, i);
		const char *c = get_utf(env, s);
		if (s && !c)
			goto nomem;
		t->names[i] = c ? dup_string(c) : NULL;
		release_utf(env, s, c);
		if (s)
			(*env)->DeleteLocalRef(env, s);
		t->n_names = (int)i + 1;
		if (c && !t->names[i])
			goto nomem;
	}
	return MS_OK;
nomem:
	(*env)->ExceptionClear(env);
	free_table(t);
	snprintf(err, err_size, "out of memory reading the unit type table");
	return MS_ENOMEM;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
	(void)vm;
	(void)reserved;
	return JNI_VERSION_1_6;
}

JNIEXPORT jlong JNICALL Java_ai_microsynth_MicrosynthAI_nCreate(JNIEnv *env, jclass cls, jstring spec, jintArray utt,
								 jobjectArray names, jlong seed)
{
	char err[ERR_SIZE];
	table_args t;
	const char *c;
	ms_jni_ai *ai = NULL;
	int rc;

	(void)cls;
	if ((rc = get_table(env, utt, names, &t, err, sizeof(err)))) {
		throw_status(env, rc, err);
		return 0;
	}
	c = get_utf(env, spec);
	if (spec && !c) {
		free_table(&t);
		return 0; /* OutOfMemoryError pending */
	}
	rc = ms_jni_ai_new(&ai, c ? c : "", t.ints, t.len, (const char *const *)t.names, t.n_names, (int64_t)seed,
			   err, sizeof(err));
	release_utf(env, spec, c);
	free_table(&t);
	if (rc) {
		throw_status(env, rc, err);
		return 0;
	}
	return (jlong)(intptr_t)ai;
}

JNIEXPORT void JNICALL Java_ai_microsynth_MicrosynthAI_nFree(JNIEnv *env, jclass cls, jlong h)
{
	(void)env;
	(void)cls;
	ms_jni_ai_free(handle(h));
}

JNIEXPORT void JNICALL Java_ai_microsynth_MicrosynthAI_nSetBot(JNIEnv *env, jclass cls, jlong h, jstring spec)
{
	const char *c;
	int rc;

	(void)cls;
	if (!h) {
		throw_status(env, MS_EINVAL, "the AI is closed");
		return;
	}
	c = get_utf(env, spec);
	if (spec && !c)
		return;
	rc = ms_jni_ai_set_bot(handle(h), c ? c : "");
	release_utf(env, spec, c);
	if (rc)
		throw_status(env, rc, ms_jni_ai_error(handle(h)));
}

JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nSetTable(JNIEnv *env, jclass cls, jlong h, jintArray utt,
								  jobjectArray names)
{
	char err[ERR_SIZE];
	table_args t;
	int rc;

	(void)cls;
	if (!h)
		return MS_EINVAL;
	if ((rc = get_table(env, utt, names, &t, err, sizeof(err))))
		return ms_ctx_error(ms_jni_ai_ctx(handle(h)), rc, "%s", err);
	rc = ms_jni_ai_set_table(handle(h), t.ints, t.len, (const char *const *)t.names, t.n_names);
	free_table(&t);
	return rc;
}

JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nReset(JNIEnv *env, jclass cls, jlong h)
{
	(void)env;
	(void)cls;
	return h ? ms_jni_ai_reset(handle(h)) : MS_EINVAL;
}

JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nSetMap(JNIEnv *env, jclass cls, jlong h, jint w, jint hh,
								jbyteArray terrain)
{
	jbyte *t;
	int rc;

	(void)cls;
	if (!h)
		return MS_EINVAL;
	if (!terrain || w < 1 || hh < 1 || (*env)->GetArrayLength(env, terrain) < (jlong)w * hh)
		return ms_ctx_error(ms_jni_ai_ctx(handle(h)), MS_EINVAL,
				    "map %dx%d: the terrain array is missing or short", (int)w, (int)hh);
	t = (*env)->GetByteArrayElements(env, terrain, NULL);
	if (!t) {
		(*env)->ExceptionClear(env);
		return MS_ENOMEM;
	}
	rc = ms_jni_ai_set_map(handle(h), w, hh, (const int8_t *)t);
	(*env)->ReleaseByteArrayElements(env, terrain, t, JNI_ABORT);
	return rc;
}

JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nDecide(JNIEnv *env, jclass cls, jlong h, jint player,
								jintArray state, jint len, jintArray out)
{
	ms_jni_ai *ai = handle(h);
	int32_t *in, *reply;
	jsize out_len;
	int rc;

	(void)cls;
	if (!ai)
		return MS_EINVAL;
	if (!state || !out || len < 0 || len > (*env)->GetArrayLength(env, state))
		return ms_ctx_error(ms_jni_ai_ctx(ai), MS_EINVAL,
				    "state: %d ints claimed, the array is missing or shorter", (int)len);
	out_len = (*env)->GetArrayLength(env, out);
	if ((rc = ms_jni_ai_buffers(ai, len, out_len, &in, &reply)))
		return rc;
	(*env)->GetIntArrayRegion(env, state, 0, len, (jint *)in);
	rc = ms_jni_ai_decide(ai, player, in, len, reply, out_len);
	if (rc > 0)
		(*env)->SetIntArrayRegion(env, out, 0, rc * MS_JNI_PAIR_INTS, (const jint *)reply);
	return rc;
}

JNIEXPORT jint JNICALL Java_ai_microsynth_MicrosynthAI_nGameOver(JNIEnv *env, jclass cls, jlong h, jint winner)
{
	(void)env;
	(void)cls;
	return h ? ms_jni_ai_game_over(handle(h), winner) : MS_EINVAL;
}

JNIEXPORT jstring JNICALL Java_ai_microsynth_MicrosynthAI_nError(JNIEnv *env, jclass cls, jlong h)
{
	(void)cls;
	return (*env)->NewStringUTF(env, h ? ms_jni_ai_error(handle(h)) : "the AI is closed");
}

JNIEXPORT jstring JNICALL Java_ai_microsynth_MicrosynthAI_nBotName(JNIEnv *env, jclass cls, jlong h)
{
	(void)cls;
	return (*env)->NewStringUTF(env, h ? ms_jni_ai_bot_name(handle(h)) : "");
}

JNIEXPORT jlong JNICALL Java_ai_microsynth_MicrosynthAI_nDecideNanos(JNIEnv *env, jclass cls, jlong h)
{
	(void)env;
	(void)cls;
	return h ? (jlong)ms_jni_ai_decide_ns(handle(h)) : -1;
}

JNIEXPORT void JNICALL Java_ai_microsynth_MicrosynthAI_nCounters(JNIEnv *env, jclass cls, jlong h, jlongArray out)
{
	int64_t v[2] = { 0, 0 };
	jlong j[2];

	(void)cls;
	if (!out || (*env)->GetArrayLength(env, out) < 2)
		return;
	if (h)
		ms_jni_ai_counters(handle(h), &v[0], &v[1]);
	j[0] = (jlong)v[0];
	j[1] = (jlong)v[1];
	(*env)->SetLongArrayRegion(env, out, 0, 2, j);
}

static void free_strings(char **v, jsize n)
{
	for (jsize i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* A Java String[] (null: none) as malloc'd C strings (a null element stays NULL); MS_ENOMEM on failure. */
static int get_strings(JNIEnv *env, jobjectArray a, char ***out, jsize *n)
{
	*out = NULL;
	*n = a ? (*env)->GetArrayLength(env, a) : 0;
	if (*n <= 0)
		return MS_OK;
	if (!(*out = calloc((size_t)*n, sizeof(char *))))
		return MS_ENOMEM;
	for (jsize i = 0; i < *n; i++) {
		jstring js = (jstring)(*env)->GetObjectArrayElement(env, a, i);
		const char *c = get_utf(env, js);
		int bad = js && !c;
		(*out)[i] = c ? dup_string(c) : NULL;
		release_utf(env, js, c);
		if (js)
			(*env)->DeleteLocalRef(env, js);
		if (bad || (c && !(*out)[i]))
			return MS_ENOMEM;
	}
	return MS_OK;
}

/*
 * Pre-game synthesis. settings (longs): [0] budget ms (0: none) [1] max
 * evaluations (0: none) [2] threads [3] game length (0: by map size)
 * [4] edition [5] seed [6] stochastic share in thousandths [7] opponent
 * seeds, and when given [8] case share in thousandths [9] max cases
 * [10] switch cycle (else no switch). field: native bot names (null: the
 * library's default field). figures (doubles, 10 or 15): psi, stochastic
 * psi, start psi, start index, screened, skipped, evals, stage-1 evals,
 * stage-2 evals, seconds, and cases, case evals, check games, the
 * program's and the switch's check scores. Returns the switch's text when
 * the search made one, else the program's, or NULL with the message in
 * nError (never throws but for OutOfMemoryError from the JVM itself).
 */
JNIEXPORT jstring JNICALL Java_ai_microsynth_MicrosynthAI_nPregame(JNIEnv *env, jclass cls, jlong h, jintArray state,
								   jint len, jobjectArray candidates, jobjectArray field,
								   jlongArray settings, jdoubleArray figures)
{
	ms_jni_ai *ai = handle(h);
	ms_rts_pregame_options o;
	ms_rts_pregame_result res;
	jlong set[11];
	char **texts = NULL, **bots = NULL;
	int32_t *in = NULL;
	jsize n = 0, nf = 0;
	jstring out = NULL;
	int rc;

	(void)cls;
	if (!ai)
		return NULL;
	if (!state || len < 0 || len > (*env)->GetArrayLength(env, state) || !settings ||
	    (*env)->GetArrayLength(env, settings) < 8 || !figures || (*env)->GetArrayLength(env, figures) < 10) {
		ms_ctx_error(ms_jni_ai_ctx(ai), MS_EINVAL, "pre-game synthesis: state, settings or figures array "
			     "missing or short");
		return NULL;
	}
	jsize n_set = (*env)->GetArrayLength(env, settings), n_fig = (*env)->GetArrayLength(env, figures);
	(*env)->GetLongArrayRegion(env, settings, 0, n_set >= 11 ? 11 : 8, set);
	ms_rts_pregame_options_init(&o, MS_RTS_PREGAME_OPTIONS_VERSION);
	o.case_share = 0;
	if (n_set >= 11) {
		o.case_share = set[8] >= 0 && set[8] < 1000 ? (double)set[8] / 1000.0 : 0;
		o.max_cases = set[9] >= 0 && set[9] <= 8 ? (int)set[9] : 0;
		o.switch_cycle = set[10] >= 1 && set[10] < (1L << 30) ? (int)set[10] : 150;
	}
	o.seconds = set[0] > 0 ? (double)set[0] / 1000.0 : 0;
	o.max_evals = set[1] > 0 ? (long long)set[1] : 0;
	o.threads = set[2] > 0 && set[2] <= 256 ? (int)set[2] : 1;
	o.max_cycles = set[3] > 0 && set[3] < (1L << 30) ? (int)set[3] : 0;
	o.edition = set[4] == MS_PATH_EDITION_2022 ? MS_PATH_EDITION_2022 : MS_PATH_EDITION_2023;
	o.seed = (uint64_t)set[5];
	o.stochastic_share = set[6] >= 0 && set[6] < 1000 ? (double)set[6] / 1000.0 : 0;
	o.opponent_seeds = set[7] >= 0 && set[7] <= 64 ? (int)set[7] : 2;
	if (get_strings(env, candidates, &texts, &n) || get_strings(env, field, &bots, &nf))
		goto nomem;
	o.candidates = (const char *const *)texts;
	o.n_candidates = (int)n;
	if (bots && nf > 0) {
		o.field = (const char *const *)bots;
		o.n_field = (int)nf;
	}
	if (!(in = malloc((size_t)(len > 0 ? len : 1) * sizeof(int32_t))))
		goto nomem;
	(*env)->GetIntArrayRegion(env, state, 0, len, (jint *)in);
	rc = ms_jni_ai_pregame(ai, in, len, &o, &res);
	if (rc == MS_OK) {
		jdouble f[10] = { res.psi, res.stochastic_psi, res.start_psi, res.start, res.screened, res.skipped,
				  (jdouble)res.evals, (jdouble)res.stage1_evals, (jdouble)res.stage2_evals, res.seconds };
		(*env)->SetDoubleArrayRegion(env, figures, 0, 10, f);
		if (n_fig >= 15) {
			jdouble g[5] = { res.cases, (jdouble)res.case_evals, res.check_games, res.check_program,
					 res.check_switch };
			(*env)->SetDoubleArrayRegion(env, figures, 10, 5, g);
		}
		out = (*env)->NewStringUTF(env, res.switch_text ? res.switch_text : res.program);
		ms_ctx_mfree(ms_jni_ai_ctx(ai), res.program);
		ms_ctx_mfree(ms_jni_ai_ctx(ai), res.switch_text);
	}
	goto done;
nomem:
	ms_ctx_error(ms_jni_ai_ctx(ai), MS_ENOMEM, "pre-game synthesis: out of memory");
done:
	free_strings(texts, n);
	free_strings(bots, nf);
	free(in);
	return out;
}
