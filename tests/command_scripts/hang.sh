#!/bin/sh
# Never finishes: a child that outlives the shell unless its whole process group is killed.
# Writes the child's pid to $1 so a test can check it is gone.
sleep 30 &
echo $! > "$1"
wait
