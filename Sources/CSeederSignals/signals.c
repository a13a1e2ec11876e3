#include "seeder_signals.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Read by the handler on whichever thread takes the signal: volatile, so that the stores that
// swap a list in stay in program order (the count is zero while the pointer changes).
static char **volatile removed_paths;
static volatile sig_atomic_t removed_count;

static void remove_and_exit(int number) {
    for (sig_atomic_t index = 0; index < removed_count; index++) unlink(removed_paths[index]);
    _exit(128 + number);
}

static void free_paths(char **paths, int count) {
    if (paths == NULL) return;
    for (int index = 0; index < count; index++) free(paths[index]);
    free(paths);
}

int seeder_remove_on_interrupt(const char *const *paths, int count) {
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    char **copies = calloc(count > 0 ? (size_t)count : 1, sizeof(char *));
    if (copies == NULL) return -1;
    for (int index = 0; index < count; index++) {
        copies[index] = strdup(paths[index]);
        if (copies[index] == NULL) {
            free_paths(copies, index);
            return -1;
        }
    }
    // The list changes with the signals blocked on this thread, and with a count of zero
    // meanwhile for a handler on another one.
    sigset_t set;
    sigemptyset(&set);
    for (size_t index = 0; index < sizeof signals / sizeof *signals; index++) sigaddset(&set, signals[index]);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    // An earlier list (a second build in the same process) is left allocated: a handler on
    // another thread may be reading it at this very moment.
    removed_count = 0;
    removed_paths = copies;
    removed_count = count;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = remove_and_exit;
    sigfillset(&action.sa_mask);
    for (size_t index = 0; index < sizeof signals / sizeof *signals; index++) {
        if (sigaction(signals[index], &action, NULL) != 0) return -1;
    }
    // A parent may have spawned us with these blocked (masks are inherited): unblock them, or
    // an interrupt would wait until the build is over.
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}
