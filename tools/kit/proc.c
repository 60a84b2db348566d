/* Child processes (proc.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

extern char **environ;

/* Adds the file action that sends stream `fd` (1 or 2) where `sink` says. */
static int route(posix_spawn_file_actions_t *fa, int fd, proc_sink sink, const char *path, int to, int pipe_w)
{
	switch (sink) {
	case PROC_INHERIT:
		return 0;
	case PROC_NULL:
		return posix_spawn_file_actions_addopen(fa, fd, "/dev/null", O_WRONLY, 0);
	case PROC_PIPE:
		return fd == 1 ? posix_spawn_file_actions_adddup2(fa, pipe_w, fd) : EINVAL;
	case PROC_FILE:
		return path ? posix_spawn_file_actions_addopen(fa, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0644)
			    : EINVAL;
	case PROC_FD:
		return to >= 0 ? posix_spawn_file_actions_adddup2(fa, to, fd) : EINVAL;
	}
	return EINVAL;
}

int proc_spawn(char *const argv[], const proc_io *io, pid_t *pid, int *pipe_fd)
{
	static const proc_io inherit;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int fds[2] = { -1, -1 }, rc;

	if (!io)
		io = &inherit;
	if (!argv || !argv[0] || (io->out == PROC_PIPE && !pipe_fd)) {
		errno = EINVAL;
		return -1;
	}
	if (io->out == PROC_PIPE && pipe(fds))
		return -1;
	fflush(stdout);
	fflush(stderr);
	rc = posix_spawn_file_actions_init(&fa);
	if (rc)
		goto out_pipe;
	rc = posix_spawnattr_init(&at);
	if (rc) {
		posix_spawn_file_actions_destroy(&fa);
		goto out_pipe;
	}
	rc = route(&fa, 1, io->out, io->out_path, io->out_fd, fds[1]);
	if (!rc)
		rc = route(&fa, 2, io->err, io->err_path, io->err_fd, fds[1]);
	if (!rc && fds[0] >= 0)
		rc = posix_spawn_file_actions_addclose(&fa, fds[0]);
	if (!rc && fds[1] >= 0)
		rc = posix_spawn_file_actions_addclose(&fa, fds[1]);
	if (!rc && io->own_group) {
		rc = posix_spawnattr_setpgroup(&at, 0);
		if (!rc)
			rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	}
	if (!rc)
		rc = posix_spawnp(pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
out_pipe:
	if (fds[1] >= 0)
		close(fds[1]);
	if (rc) {
		if (fds[0] >= 0)
			close(fds[0]);
		errno = rc;
		return -1;
	}
	if (pipe_fd && io->out == PROC_PIPE)
		*pipe_fd = fds[0];
	return 0;
}

static int status_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

long kit_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void kit_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int proc_wait(pid_t pid, int timeout_ms)
{
	long deadline = kit_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	int status;

	if (pid <= 0)
		return -1;
	for (;;) {
		pid_t r = waitpid(pid, &status, timeout_ms < 0 ? 0 : WNOHANG);
		if (r == pid)
			return status_code(status);
		if (r < 0 && errno != EINTR)
			return -1;
		if (r == 0) {
			if (kit_now_ms() >= deadline)
				return -1;
			kit_sleep_ms(20);
		}
	}
}

void proc_kill(pid_t pid)
{
	int status;

	if (pid <= 0)
		return;
	kill(getpgid(pid) == pid ? -pid : pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}
