/*
 * The hosted JVM (see microsynth/jvm.h). libjvm is found and opened at run
 * time; the harness jar is loaded through its own URLClassLoader so that a
 * VM started by someone else (the library running inside Java) works too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "microsynth/jvm.h"
#include "core/opts.h"

struct ms_jvm {
	ms_ctx *ctx;
	JavaVM *vm;
	jclass embedded;  /* global ref to ai.microsynth.harness.Embedded */
	jmethodID match;  /* static String match(String[]) */
	char *harness_dir;
};

typedef jint (*create_vm_fn)(JavaVM **, void **, void *);
typedef jint (*created_vms_fn)(JavaVM **, jsize, jsize *);

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* JAVA_HOME from the `java` on PATH: <home>/bin/java after resolving links. */
static int home_from_path(char *out, size_t size)
{
	const char *path = getenv("PATH");
	char cand[PATH_MAX], real[PATH_MAX];
	while (path && *path) {
		const char *e = strchr(path, ':');
		size_t n = e ? (size_t)(e - path) : strlen(path);
		if (n > 0 && n < sizeof(cand) - 6) {
			snprintf(cand, sizeof(cand), "%.*s/java", (int)n, path);
			if (is_file(cand) && realpath(cand, real)) {
				char *slash = strrchr(real, '/');
				if (slash) {
					*slash = '\0'; /* .../bin */
					slash = strrchr(real, '/');
					if (slash) {
						*slash = '\0';
						snprintf(out, size, "%s", real);
						return 0;
					}
				}
			}
		}
		path = e ? e + 1 : NULL;
	}
	return -1;
}

static void *open_libjvm(ms_ctx *ctx, const char *java_home, int *rc)
{
	char home[PATH_MAX], lib[PATH_MAX + 64];
	static const char *const rel[] = { "lib/server/libjvm.so", "jre/lib/amd64/server/libjvm.so",
					   "lib/client/libjvm.so" };
	const char *env = getenv("JAVA_HOME");
	if (java_home && *java_home)
		snprintf(home, sizeof(home), "%s", java_home);
	else if (env && *env)
		snprintf(home, sizeof(home), "%s", env);
	else if (home_from_path(home, sizeof(home))) {
		*rc = ms_ctx_error(ctx, MS_ENOTFOUND, "jvm: no JAVA_HOME and no java on PATH");
		return NULL;
	}
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(lib, sizeof(lib), "%s/%s", home, rel[i]);
		if (!is_file(lib))
			continue;
		void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
		if (h)
			return h;
		*rc = ms_ctx_error(ctx, MS_ERROR, "jvm: cannot load %s: %s", lib, dlerror());
		return NULL;
	}
	*rc = ms_ctx_error(ctx, MS_ENOTFOUND, "jvm: no libjvm.so under %s", home);
	return NULL;
}

/* The message of a pending Java exception (cleared), into the context. */
static int java_error(ms_ctx *ctx, JNIEnv *env, int status, const char *what)
{
	jthrowable t = (*env)->ExceptionOccurred(env);
	char msg[512] = "unknown error";
	if (t) {
		(*env)->ExceptionClear(env);
		jclass k = (*env)->GetObjectClass(env, t);
		jmethodID gm = (*env)->GetMethodID(env, k, "getMessage", "()Ljava/lang/String;");
		jstring s = gm ? (jstring)(*env)->CallObjectMethod(env, t, gm) : NULL;
		if ((*env)->ExceptionCheck(env))
			(*env)->ExceptionClear(env);
		if (!s) {
			jmethodID ts = (*env)->GetMethodID(env, k, "toString", "()Ljava/lang/String;");
			s = ts ? (jstring)(*env)->CallObjectMethod(env, t, ts) : NULL;
			if ((*env)->ExceptionCheck(env))
				(*env)->ExceptionClear(env);
		}
		if (s) {
			const char *c = (*env)->GetStringUTFChars(env, s, NULL);
			if (c) {
				snprintf(msg, sizeof(msg), "%s", c);
				(*env)->ReleaseStringUTFChars(env, s, c);
			}
		}
	}
	return ms_ctx_error(ctx, status, "jvm: %s: %s", what, msg);
}

/* Attaches the calling thread when needed; *attached tells whether to detach. */
static int get_env(ms_jvm *j, JNIEnv **env, int *attached)
{
	*attached = 0;
	jint r = (*j->vm)->GetEnv(j->vm, (void **)env, JNI_VERSION_1_8);
	if (r == JNI_OK)
		return 0;
	if (r != JNI_EDETACHED || (*j->vm)->AttachCurrentThread(j->vm, (void **)env, NULL) != JNI_OK)
		return ms_ctx_error(j->ctx, MS_ERROR, "jvm: cannot attach this thread");
	*attached = 1;
	return 0;
}

/* new URLClassLoader(new URL[]{ new File(jar).toURI().toURL() }).loadClass(Embedded) */
static int load_embedded(ms_jvm *j, JNIEnv *env, const char *jar)
{
	jclass file_k = (*env)->FindClass(env, "java/io/File");
	jclass url_k = (*env)->FindClass(env, "java/net/URL");
	jclass loader_k = (*env)->FindClass(env, "java/net/URLClassLoader");
	if (!file_k || !url_k || !loader_k)
		return java_error(j->ctx, env, MS_ERROR, "JDK classes");
	jmethodID file_new = (*env)->GetMethodID(env, file_k, "<init>", "(Ljava/lang/String;)V");
	jmethodID to_uri = (*env)->GetMethodID(env, file_k, "toURI", "()Ljava/net/URI;");
	jclass uri_k = (*env)->FindClass(env, "java/net/URI");
	jmethodID to_url = (*env)->GetMethodID(env, uri_k, "toURL", "()Ljava/net/URL;");
	jmethodID loader_new = (*env)->GetMethodID(env, loader_k, "<init>", "([Ljava/net/URL;)V");
	jmethodID load = (*env)->GetMethodID(env, loader_k, "loadClass", "(Ljava/lang/String;)Ljava/lang/Class;");
	jstring path = (*env)->NewStringUTF(env, jar);
	jobject f = path ? (*env)->NewObject(env, file_k, file_new, path) : NULL;
	jobject uri = f ? (*env)->CallObjectMethod(env, f, to_uri) : NULL;
	jobject url = uri ? (*env)->CallObjectMethod(env, uri, to_url) : NULL;
	jobjectArray urls = url ? (*env)->NewObjectArray(env, 1, url_k, url) : NULL;
	jobject loader = urls ? (*env)->NewObject(env, loader_k, loader_new, urls) : NULL;
	jstring name = loader ? (*env)->NewStringUTF(env, "ai.microsynth.harness.Embedded") : NULL;
	jclass k = name ? (jclass)(*env)->CallObjectMethod(env, loader, load, name) : NULL;
	if (!k || (*env)->ExceptionCheck(env))
		return java_error(j->ctx, env, MS_ENOTFOUND, "loading ai.microsynth.harness.Embedded");
	j->match = (*env)->GetStaticMethodID(env, k, "match", "([Ljava/lang/String;)Ljava/lang/String;");
	if (!j->match)
		return java_error(j->ctx, env, MS_ERROR, "Embedded.match");
	j->embedded = (jclass)(*env)->NewGlobalRef(env, k);
	return j->embedded ? 0 : java_error(j->ctx, env, MS_ENOMEM, "global reference");
}

static int find_or_create_vm(ms_jvm *j, const ms_jvm_options *o)
{
	/* Inside a JVM already (or a VM we started for another handle)? */
	created_vms_fn created = (created_vms_fn)dlsym(RTLD_DEFAULT, "JNI_GetCreatedJavaVMs");
	jsize n = 0;
	if (created && created(&j->vm, 1, &n) == JNI_OK && n == 1)
		return 0;
	int rc = 0;
	void *lib = open_libjvm(j->ctx, o->java_home, &rc);
	if (!lib)
		return rc;
	/* The handle stays open: the VM cannot be unloaded. */
	created = (created_vms_fn)dlsym(lib, "JNI_GetCreatedJavaVMs");
	if (created && created(&j->vm, 1, &n) == JNI_OK && n == 1)
		return 0;
	create_vm_fn create = (create_vm_fn)dlsym(lib, "JNI_CreateJavaVM");
	if (!create)
		return ms_ctx_error(j->ctx, MS_ERROR, "jvm: libjvm lacks JNI_CreateJavaVM");
	JavaVMOption opt[34];
	int k = 0;
	opt[k++].optionString = "-Djava.awt.headless=true";
	opt[k++].optionString = "-Xrs"; /* leave SIGINT/SIGTERM to the host program */
	for (int i = 0; i < o->n_vm_options && k < 34; i++)
		opt[k++].optionString = (char *)o->vm_options[i];
	JavaVMInitArgs args = { .version = JNI_VERSION_1_8, .nOptions = k, .options = opt,
				.ignoreUnrecognized = JNI_FALSE };
	JNIEnv *env;
	if (create(&j->vm, (void **)&env, &args) != JNI_OK)
		return ms_ctx_error(j->ctx, MS_ERROR, "jvm: JNI_CreateJavaVM failed (bad VM option?)");
	return 0;
}

void ms_jvm_close(ms_jvm *j)
{
	if (!j)
		return;
	if (j->embedded) {
		JNIEnv *env;
		int attached;
		if (get_env(j, &env, &attached) == 0) {
			(*env)->DeleteGlobalRef(env, j->embedded);
			if (attached)
				(*j->vm)->DetachCurrentThread(j->vm);
		}
	}
	ms_ctx_mfree(j->ctx, j->harness_dir);
	ms_ctx_mfree(j->ctx, j);
}

int ms_jvm_open(ms_ctx *ctx, ms_jvm **out, const ms_jvm_options *o)
{
	*out = NULL;
	if (!o || o->version != MS_JVM_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "jvm: unknown options version");
	if (!o->harness_jar || !is_file(o->harness_jar))
		return ms_ctx_error(ctx, MS_ENOTFOUND, "jvm: harness jar %s not found",
				    o->harness_jar ? o->harness_jar : "(none given)");
	ms_jvm *j = ms_ctx_calloc(ctx, 1, sizeof *j);
	if (!j)
		return ms_ctx_error(ctx, MS_ENOMEM, "jvm: out of memory");
	j->ctx = ctx;
	if (o->harness_dir && !(j->harness_dir = ms_ctx_strdup(ctx, o->harness_dir))) {
		ms_ctx_mfree(ctx, j);
		return ms_ctx_error(ctx, MS_ENOMEM, "jvm: out of memory");
	}
	int rc = find_or_create_vm(j, o);
	JNIEnv *env;
	int attached = 0;
	if (rc == 0 && (rc = get_env(j, &env, &attached)) == 0) {
		rc = load_embedded(j, env, o->harness_jar);
		if (attached)
			(*j->vm)->DetachCurrentThread(j->vm);
	}
	if (rc < 0) {
		ms_jvm_close(j);
		return rc;
	}
	*out = j;
	return 0;
}

/* Match's summary: "result crashed=C timedout=T ..." and "winner=W cycles=N". */
static int parse_result(ms_ctx *ctx, const char *text, ms_jvm_result *res)
{
	const char *r = strstr(text, "result crashed=");
	const char *w = NULL;
	for (const char *p = strstr(text, "winner="); p; p = strstr(p + 1, "winner="))
		if (p == text || p[-1] == '\n')
			w = p;
	res->crashed = res->timed_out = -1;
	if (r && sscanf(r, "result crashed=%d timedout=%d", &res->crashed, &res->timed_out) != 2)
		res->crashed = res->timed_out = -1;
	if (!w || sscanf(w, "winner=%d cycles=%d", &res->winner, &res->cycles) != 2)
		return ms_ctx_error(ctx, MS_ERROR, "jvm: the match printed no summary: %.200s", text);
	return 0;
}

int ms_jvm_match(ms_jvm *j, const ms_jvm_match_options *m, ms_jvm_result *res)
{
	if (!m || m->version != MS_JVM_MATCH_OPTIONS_VERSION)
		return ms_ctx_error(j->ctx, MS_EINVAL, "jvm match: unknown options version");
	if (!m->map || !m->p0 || !m->p1)
		return ms_ctx_error(j->ctx, MS_EINVAL, "jvm match: map, p0 and p1 are required");
	char num[6][32];
	const char *argv[32];
	int n = 0;
	if (j->harness_dir)
		argv[n++] = "--harness", argv[n++] = j->harness_dir;
	argv[n++] = "--map", argv[n++] = m->map;
	argv[n++] = "--p0", argv[n++] = m->p0;
	argv[n++] = "--p1", argv[n++] = m->p1;
	snprintf(num[0], sizeof num[0], "%d", m->utt ? m->utt : 2);
	snprintf(num[1], sizeof num[1], "%d", m->conflict ? m->conflict : 1);
	snprintf(num[2], sizeof num[2], "%d", m->max_cycles ? m->max_cycles : 5000);
	snprintf(num[3], sizeof num[3], "%d", m->time_budget ? m->time_budget : 100);
	snprintf(num[4], sizeof num[4], "%lld", (long long)m->seed);
	argv[n++] = "--utt", argv[n++] = num[0];
	argv[n++] = "--conflict", argv[n++] = num[1];
	argv[n++] = "--max-cycles", argv[n++] = num[2];
	argv[n++] = "--time-budget", argv[n++] = num[3];
	if (m->seeded)
		argv[n++] = "--seed", argv[n++] = num[4];
	if (m->partially_observable)
		argv[n++] = "--partially-observable";
	if (m->trace)
		argv[n++] = "--trace", argv[n++] = m->trace;
	if (m->hang_ms > 0) {
		snprintf(num[5], sizeof num[5], "%d", m->hang_ms);
		argv[n++] = "--hang-ms", argv[n++] = num[5];
	}

	JNIEnv *env;
	int attached, rc;
	if ((rc = get_env(j, &env, &attached)) < 0)
		return rc;
	if ((*env)->PushLocalFrame(env, n + 8) < 0) {
		rc = java_error(j->ctx, env, MS_ENOMEM, "local frame");
		goto out;
	}
	jclass str_k = (*env)->FindClass(env, "java/lang/String");
	jobjectArray arr = str_k ? (*env)->NewObjectArray(env, n, str_k, NULL) : NULL;
	for (int i = 0; arr && i < n; i++) {
		jstring s = (*env)->NewStringUTF(env, argv[i]);
		if (!s)
			break;
		(*env)->SetObjectArrayElement(env, arr, i, s);
	}
	if (!arr || (*env)->ExceptionCheck(env)) {
		rc = java_error(j->ctx, env, MS_ENOMEM, "arguments");
	} else {
		jstring text = (jstring)(*env)->CallStaticObjectMethod(env, j->embedded, j->match, arr);
		if ((*env)->ExceptionCheck(env) || !text) {
			rc = java_error(j->ctx, env, MS_EINVAL, "match");
		} else {
			const char *c = (*env)->GetStringUTFChars(env, text, NULL);
			rc = c ? parse_result(j->ctx, c, res) : ms_ctx_error(j->ctx, MS_ENOMEM, "jvm: result text");
			if (c)
				(*env)->ReleaseStringUTFChars(env, text, c);
		}
	}
	(*env)->PopLocalFrame(env, NULL);
out:
	if (attached)
		(*j->vm)->DetachCurrentThread(j->vm);
	return rc;
}

int ms_jvm_options_init(ms_jvm_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_JVM_OPTIONS_VERSION);
}

int ms_jvm_match_options_init(ms_jvm_match_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_JVM_MATCH_OPTIONS_VERSION);
}
