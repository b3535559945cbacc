#include "child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "hopsim/signals/error.h"

extern char** environ;  // NOLINT: POSIX, for posix_spawn

namespace hopsim::apps {
namespace {

/// Pointers to the strings of `strings`, null-terminated, as exec wants them.
std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> result;
  result.reserve(strings.size() + 1);
  for (const std::string& text : strings) result.push_back(const_cast<char*>(text.c_str()));
  result.push_back(nullptr);
  return result;
}

}  // namespace

int runChild(const std::vector<std::string>& argv, const std::vector<std::string>* environment,
             const std::string& stdinFile, ChildExit& exit) {
  const std::vector<char*> args = pointers(argv);
  const std::vector<char*> envp = environment ? pointers(*environment) : std::vector<char*>{};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stdinFile.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, stdinFile.c_str(), O_RDONLY, 0);
  }
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv.front().c_str(), &actions, nullptr, args.data(),
                                     environment ? envp.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return spawned;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw Error("waiting for '" + argv.front() + "': " + std::strerror(errno));
    }
  }
  exit.exited = WIFEXITED(status);
  exit.code = exit.exited ? WEXITSTATUS(status) : WTERMSIG(status);
  return 0;
}

}  // namespace hopsim::apps
