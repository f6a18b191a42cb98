# The supervisor between baton and the command it runs under a lock or leadership
# (see GuardedChild). Run as: setsid bash -c "$(cat guard.sh)" baton-guard BATON_PID GRACE_MS CMD ARGS...
#
# Standard input is a pipe from baton. Each line is an order for the command's process group
# (INT, TERM, HUP or KILL); end of file means baton is gone (it exited or was killed, even with
# SIGKILL: the kernel closes the pipe with the process), and the whole group is killed at once.
# The supervisor exits only once nothing of the group runs any more, with the command's exit
# code: a command that leaves processes behind has them stopped (TERM, then KILL after the
# grace) before baton releases what it holds.
set -u
baton=$1 grace_ms=$2
shift 2

if ! type -P -- "$1" >/dev/null; then
  echo "baton: cannot run $1: not found or not executable" >&2
  exit 127
fi

exec 3<&0                                      # the order pipe, for the watcher only
# The command reads baton's own standard input (this process's is the order pipe).
{ exec 4<"/proc/$baton/fd/0"; } 2>/dev/null || exec 4</dev/null

set -m                                         # a process group of its own for the command,
{ exec "$@"; } <&4 3<&- 4<&- &                 # and SIGINT not ignored in it, as it would be
cmd=$!                                         # in a background job without job control
set +m
exec 4<&-

# The watcher: passes orders on to the group; on end of file kills the group.
(
  while read -r order <&3; do
    case $order in
      INT|TERM|HUP|KILL) kill -s "$order" -- "-$cmd" 2>/dev/null ;;
    esac
  done
  kill -s KILL -- "-$cmd" 2>/dev/null
) &
watcher=$!
exec 3<&- 2>/dev/null                          # bash's own job reports ("Killed") are noise here

now_us() {
  if [ -n "${EPOCHREALTIME:-}" ]; then
    now=${EPOCHREALTIME/[.,]/}
  else
    now=$((SECONDS * 1000000))
  fi
}

# Whether a process of the command's group still runs. A process that died but was not yet
# reaped (a zombie, waiting for init) runs no more and does not count.
group_runs() {
  kill -0 -- "-$cmd" 2>/dev/null || return 1
  local stat rest
  for stat in /proc/[0-9]*/stat; do
    read -r rest 2>/dev/null <"$stat" || continue
    rest=${rest##*) }                          # after the name: state, parent, group, ...
    set -- $rest
    [ "$3" = "$cmd" ] && [ "$1" != Z ] && return 0
  done
  return 1
}

# Waits until nothing of the command's group runs, or the deadline (microseconds) passes.
await_group_gone() {
  while group_runs; do
    now_us
    [ "$now" -lt "$1" ] || return 1
    sleep 0.05
  done
  return 0
}

wait "$cmd"
code=$?

# What the command left running in its group is stopped before baton lets go.
if group_runs; then
  kill -s TERM -- "-$cmd" 2>/dev/null
  now_us
  if ! await_group_gone $((now + grace_ms * 1000)); then
    kill -s KILL -- "-$cmd" 2>/dev/null
    now_us
    await_group_gone $((now + 1000000))
  fi
fi
kill -s KILL "$watcher" 2>/dev/null
exit "$code"
