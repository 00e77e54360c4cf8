#!/bin/sh
# Fails the way a provider CLI does: a message on stderr and a non-zero exit status.
echo "working..."
echo "error: QuotaExceeded: the account cannot do that now" >&2
exit 3
