/*
 * kill_after FILE BYTES CMD [ARGS...]: runs CMD and sends it SIGKILL as
 * soon as FILE holds at least BYTES bytes (polled every 2 ms), so a test
 * can kill a search in the middle of its checkpoint log. Exit status: 0 if
 * the command was killed, 3 if it ended by itself first, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: kill_after FILE BYTES CMD [ARGS...]\n");
		return 2;
	}
	long long want = atoll(argv[2]);
	pid_t pid = fork();
	if (pid < 0) {
		perror("kill_after: fork");
		return 2;
	}
	if (pid == 0) {
		execv(argv[3], argv + 3);
		perror("kill_after: exec");
		_exit(127);
	}
	for (;;) {
		struct stat st;
		int status;
		struct timespec ts = { 0, 2000000 };

		if (waitpid(pid, &status, WNOHANG) == pid) {
			fprintf(stderr, "kill_after: the command ended by itself (status %d) before %s reached %lld "
				"bytes\n", status, argv[1], want);
			return 3;
		}
		if (stat(argv[1], &st) == 0 && st.st_size >= want) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			printf("killed at %lld bytes of %s\n", (long long)st.st_size, argv[1]);
			return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? 0 : 3;
		}
		nanosleep(&ts, NULL);
	}
}
