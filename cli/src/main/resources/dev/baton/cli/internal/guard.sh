# The supervisor between baton and a command run under a lock or leadership (see GuardedChild).
# Run as: setsid -w bash -c "$(cat guard.sh)" baton-guard DIR BATON_PID GRACE_MS DEAD_BY CMD ARGS...
#
# This process leads a session of its own; the command, and all it starts, run in that session
# (the command in a process group of its own, so that SIGINT is not ignored in it). Every signal
# this script sends goes to the whole session — every process whose session id is this process's
# pid — but this process and its watcher: a process that moved to another process group (setpgid:
# coreutils' timeout, a shell's `set -m`) is still in it. One that starts a session of its own
# (setsid) has left it; docs/cli.md says which escapes remain.
#
# DIR is baton's private directory (mode 0700). DIR/orders is a FIFO that baton opened for writing
# before this started, and the only writer. One line per order: INT, TERM, HUP or KILL for the
# session; "BEAT D": the command must be dead by D (hundredths of a second on the clock of
# /proc/uptime), the lease baton renews while it can show that its session is alive; QUIT (from
# this process at its end) for the watcher to go. End of file means baton is gone — it exited or
# was killed, even by SIGKILL: the kernel closes the FIFO with it — and the session is killed at
# once. If D passes with no newer one, baton is stopped or stalled or cut off: the session gets
# SIGTERM GRACE_MS before D and SIGKILL at D, before the servers can have expired the session.
#
# The command keeps baton's own standard input, output and error: this process passes them on
# untouched. It writes DIR/session (its pid, before the command starts), DIR/stopped (why, if it
# stopped the command on its own) and DIR/exit (the command's code, when it is done) for baton to
# read after it exits; it exits only once nothing of the session runs any more, with the command's
# exit code.
set -u
dir=$1 baton=$2 grace_ms=$3 dead_by=$4
shift 4
session=$$ watcher=
grace_cs=$(( (grace_ms + 9) / 10 ))

if ! type -P -- "$1" >/dev/null; then
  echo "baton: cannot run $1: not found or not executable" >&2
  exit 127
fi

# The orders, opened read-write first (that open does not wait for a writer), then read-only; the
# read-write end closed, baton is the only writer left, and a read sees end of file once it is gone
# (at once if it is gone already).
if ! { exec 5<>"$dir/orders" 4<"$dir/orders"; } 2>/dev/null; then
  echo "baton: cannot open the supervisor's orders in $dir" >&2
  exit 70
fi
exec 5>&-
# A pipe with no data that never ends: `read -t N -u 6` sleeps N seconds with no process of its own
# (a `sleep` would be a process of the session, which the scans below would count).
exec 6<> <(:)

now_cs() {
  local up
  read -r up _ </proc/uptime
  up=${up/./}
  now=$((10#$up))
}

# Sets `found` to "group:pid" for every process of the session that runs, but this one and the
# watcher. A zombie (dead, not yet reaped) does not run, unless another thread of it still does
# (its main thread ended, as pthread_exit does): then /proc shows the process as a zombie, and
# it runs.
scan() {
  found=()
  local stat rest pid task state runs
  for stat in /proc/[0-9]*/stat; do
    read -r rest 2>/dev/null <"$stat" || continue
    rest=${rest##*) }                          # after the name: state, parent, group, session, ...
    set -- $rest
    [ "$4" = "$session" ] || continue
    pid=${stat#/proc/}
    pid=${pid%/stat}
    if [ "$pid" = "$session" ] || [ "$pid" = "$watcher" ]; then
      continue
    fi
    if [ "$1" = Z ] || [ "$1" = X ]; then
      runs=
      for task in /proc/"$pid"/task/[0-9]*/stat; do
        read -r state 2>/dev/null <"$task" || continue
        state=${state##*) }
        state=${state%% *}
        if [ "$state" != Z ] && [ "$state" != X ]; then
          runs=1
          break
        fi
      done
      [ -n "$runs" ] || continue
    fi
    found+=("$3:$pid")
  done
}

# Sends signal $1 to every process of the session but this one and the watcher: to each process
# group of it (all of a group at once, with whatever it forks meanwhile), and to each process one
# by one in this process's own group. False if there was none.
signal_session() {
  scan
  [ ${#found[@]} -gt 0 ] || return 1
  local entry group groups=" "
  for entry in "${found[@]}"; do
    group=${entry%%:*}
    if [ "$group" = "$session" ]; then
      kill -s "$1" "${entry#*:}" 2>/dev/null
    elif [[ $groups != *" $group "* ]]; then
      groups+="$group "
      kill -s "$1" -- "-$group" 2>/dev/null
    fi
  done
  return 0
}

printf '%s\n' "$session" >"$dir/session"

set -m
{ exec "$@"; } 4<&- 6<&- &
cmd=$!
set +m

# The watcher: carries out baton's orders, kills the session when baton goes, and stops it when
# the lease runs out. Exits 0 on QUIT, 3 at end of file.
(
  watcher=$BASHPID
  stopping=                                    # empty, then TERM (KILL due at dead_by), then KILL
  while :; do
    now_cs
    if [ -z "$stopping" ] && (( now >= dead_by - grace_cs )); then
      stopping=TERM
      echo "no word from the servers in time: baton was stopped, stalled or cut off" >"$dir/stopped"
      signal_session TERM
      continue
    elif [ "$stopping" = TERM ] && (( now >= dead_by )); then
      stopping=KILL
      continue
    fi
    if [ "$stopping" = KILL ]; then
      # until nothing of the session runs; then only orders
      if signal_session KILL; then wait_for=0.05; else wait_for=; fi
    else
      [ -z "$stopping" ] && due=$((dead_by - grace_cs)) || due=$dead_by
      printf -v wait_for '%d.%02d' $(( (due - now) / 100 )) $(( (due - now) % 100 ))
    fi
    if [ -n "$wait_for" ]; then
      read -r -t "$wait_for" order <&4
    else
      read -r order <&4
    fi
    status=$?
    if [ $status -eq 0 ]; then
      case $order in
        "BEAT "[0-9]*) [ -n "$stopping" ] || dead_by=${order#BEAT } ;;
        INT|TERM|HUP|KILL) signal_session "$order" ;;
        QUIT) exit 0 ;;
      esac
    elif [ $status -le 128 ]; then
      # end of file: baton is gone; nothing of the session may stay
      while signal_session KILL; do
        read -r -t 0.05 -u 6
      done
      exit 3
    fi                                         # else the wait timed out: look at the clock again
  done
) &
watcher=$!
exec 4<&- 2>/dev/null                          # bash's own job reports ("Killed") are noise here

wait "$cmd"
code=$?

# What the command left running in the session is stopped before baton lets go: SIGTERM, then
# SIGKILL after the grace.
if signal_session TERM; then
  now_cs
  end=$((now + grace_cs))
  while scan && [ ${#found[@]} -gt 0 ]; do
    now_cs
    (( now < end )) || break
    read -r -t 0.05 -u 6
  done
  while signal_session KILL; do
    read -r -t 0.05 -u 6
  done
fi

printf '%s\n' "$code" >"$dir/exit"
# The watcher goes on QUIT, never on a signal: its pid, once it has exited, may be another process's.
{ exec 5<>"$dir/orders"; } 2>/dev/null && echo QUIT >&5
wait "$watcher"
if [ $? -eq 3 ] && ! kill -0 "$baton" 2>/dev/null; then
  rm -rf -- "$dir"                             # baton is gone: nobody else will
fi
exit "$code"
