#!/bin/sh
# A tiny cloud for the command provider's tests, kept as files in a directory:
#   cloud.sh inventory DIR        print the inventory JSON
#   cloud.sh release|stop DIR     change the state
#   cloud.sh extend DIR DEADLINE  hold a deadline
#   cloud.sh prune DIR KEEP       keep at most KEEP snapshots
#   cloud.sh noop DIR             succeed without doing anything
#   cloud.sh list_account DIR     print the account's unattached volumes
#   cloud.sh delete DIR ID KIND   delete a volume (vol-data is refused while attached)
# A file DIR/keeps_released makes it list a released instance (as released) instead of none.
set -eu
verb=$1
dir=$2
state=$(cat "$dir/state" 2>/dev/null || echo running)
case $verb in
  release) echo released > "$dir/state" ;;
  stop) echo stopped > "$dir/state" ;;
  extend) echo "$3" > "$dir/deadline" ;;
  prune)
    count=$(cat "$dir/snapshots" 2>/dev/null || echo 3)
    if [ "$count" -gt "$3" ]; then echo "$3" > "$dir/snapshots"; fi ;;
  noop) ;;
  list_account)
    resources=""
    for v in $(cat "$dir/volumes" 2>/dev/null || echo vol-orphan); do
      if [ -n "$resources" ]; then resources="$resources, "; fi
      resources="$resources{\"id\": \"$v\", \"name\": \"old\", \"kind\": \"network_volume\", \"size_gib\": 100, \"state\": \"available\", \"created\": \"2026-01-01T00:00:00Z\", \"deleted_with_instance\": false, \"attached_to\": null}"
    done
    printf '{"resources": [%s]}\n' "$resources" ;;
  delete)
    if [ "$3" = vol-data ] && [ "$state" != released ]; then
      echo "cloud.sh: vol-data is attached to i-cmd: detach it first" >&2; exit 1
    fi
    found=no
    rest=""
    for v in $(cat "$dir/volumes" 2>/dev/null || echo vol-orphan); do
      if [ "$v" = "$3" ] && [ "$4" = network_volume ]; then found=yes; else rest="$rest $v"; fi
    done
    if [ "$found" = no ]; then echo "cloud.sh: no $4 $3" >&2; exit 1; fi
    echo "$rest" > "$dir/volumes" ;;
  inventory)
    if [ "$state" = released ] && [ ! -f "$dir/keeps_released" ]; then
      instance=null
    else
      instance="{\"id\": \"i-cmd\", \"name\": \"trainer\", \"sku\": \"A100-80G\", \"state\": \"$state\", \"created\": \"2026-01-02T03:04:05Z\", \"price_per_hour\": \"1.89\"}"
    fi
    deadline=null
    if [ -f "$dir/deadline" ]; then deadline="\"$(cat "$dir/deadline")\""; fi
    resources="{\"id\": \"vol-data\", \"name\": \"data\", \"kind\": \"data_disk\", \"size_gib\": 500, \"state\": \"attached\", \"created\": \"2026-01-02T03:04:05Z\", \"deleted_with_instance\": false}"
    count=$(cat "$dir/snapshots" 2>/dev/null || echo 3)
    i=0
    while [ "$i" -lt "$count" ]; do
      resources="$resources, {\"id\": \"snap-$i\", \"name\": \"\", \"kind\": \"snapshot\", \"size_gib\": \"50\", \"state\": \"done\", \"created\": \"2026-01-0$((i + 1))T00:00:00Z\", \"deleted_with_instance\": false}"
      i=$((i + 1))
    done
    printf '{"instance": %s, "resources": [%s], "deadline": %s}\n' "$instance" "$resources" "$deadline" ;;
  *) echo "cloud.sh: unknown verb $verb" >&2; exit 64 ;;
esac
