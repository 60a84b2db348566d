/*
 * Child processes for the command-line tools and the tests: the one way the
 * tree starts a JVM, an MPI job, a Python bridge or itself. posix_spawn
 * rather than fork, because the callers may host a JVM or worker threads.
 */
#ifndef MS_TOOLS_KIT_PROC_H
#define MS_TOOLS_KIT_PROC_H

#include <sys/types.h>

/* Where one of the child's output streams goes. */
typedef enum proc_sink {
	PROC_INHERIT = 0, /* the caller's stream */
	PROC_NULL,	  /* /dev/null */
	PROC_PIPE,	  /* a pipe whose read end proc_spawn returns (stdout only) */
	PROC_FILE,	  /* a file, created or truncated */
	PROC_FD		  /* a descriptor of the caller's */
} proc_sink;

typedef struct proc_io {
	proc_sink out, err;
	const char *out_path, *err_path; /* PROC_FILE */
	int out_fd, err_fd;		 /* PROC_FD */
	int own_group;			 /* a process group of its own, so proc_kill reaches its children */
} proc_io;

/* Starts argv[0], looked up in PATH; io NULL inherits everything. With
 * io->out PROC_PIPE, *pipe_fd is the read end of the child's stdout (the
 * caller closes it). Flushes stdout and stderr first so output keeps its
 * order. 0, or -1 with errno (the program could not be started). */
int proc_spawn(char *const argv[], const proc_io *io, pid_t *pid, int *pipe_fd);

/* Waits for the child, at most timeout_ms (negative: no limit). Its exit
 * status, 128 + the signal that ended it, or -1 on timeout (the child still
 * runs) or when it cannot be waited for. */
int proc_wait(pid_t pid, int timeout_ms);

/* Kills the child (its whole group when it has one) and reaps it. */
void proc_kill(pid_t pid);

/* The kit's clock, for the waits here and the line client's timeouts:
 * monotonic milliseconds, and a nap that resumes after signals. */
long kit_now_ms(void);
void kit_sleep_ms(long ms);

#endif
