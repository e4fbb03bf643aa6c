#!/bin/sh
# Prints the Python that `make` builds the virtualenv with.
#   find-python.sh [PYTHON]
# With an argument (make's PYTHON=), that interpreter, if it runs and is 3.11 or newer. Without,
# the newest of python3.13, python3.12, python3.11 that runs, else python3 if it is 3.11 or newer.
# A candidate counts only if it runs: a pyenv shim for a version that is not selected is on PATH
# but answers "command not found". When none fits, says what was tried and exits 1.
set -u

tried=""

# Prints the candidate's version (3.12.1) when it runs, nothing when it does not.
version_of() {
    "$1" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null
}

# True when the version is 3.11 or newer (major.minor compared as numbers).
recent_enough() {
    major=${1%%.*}
    rest=${1#*.}
    minor=${rest%%.*}
    [ "$major" -gt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -ge 11 ]; }
}

# Prints and accepts the candidate when it fits; otherwise records why not.
fits() {
    if ! command -v "$1" >/dev/null 2>&1; then
        tried="$tried
  $1: not found"
        return 1
    fi
    version=$(version_of "$1")
    if [ -z "$version" ]; then
        tried="$tried
  $1: found at $(command -v "$1") but does not run"
        return 1
    fi
    if ! recent_enough "$version"; then
        tried="$tried
  $1: Python $version, too old"
        return 1
    fi
    echo "$1"
}

if [ -n "${1:-}" ]; then
    fits "$1" && exit 0
else
    for candidate in python3.13 python3.12 python3.11 python3; do
        fits "$candidate" && exit 0
    done
fi
printf 'Sortie needs Python 3.11 or newer. Tried:%s\n' "$tried" >&2
echo "Install one (3.11, 3.12 or 3.13), or name it: make run PYTHON=/path/to/python3.12" >&2
exit 1
