# Lambda, Vast, RunPod, the command adapter and what every adapter shares: what they say
# themselves, in read-backs, deletions and failures.

# What every adapter falls back to where it has no way of its own
prov-unsupported-sweep = sweep the account (not built for this adapter yet)
prov-unsupported-instances = list the account's instances (name them in [[fleet]] instances instead)
prov-unsupported-delete = delete a { $kind } (not built for this adapter yet)

# The one-key clouds' JSON API: refusals, answers that are not what was documented, read-backs
prov-api-key-rejected = { $provider } rejected the API key (HTTP { $status }): check { $var }
prov-api-malformed-call = { $call }: the answer is not the documented JSON ({ $what })
prov-api-malformed = the answer is not the documented JSON ({ $what })
# $key is a JSON key of the answer (data, pods, volumes)
prov-answer-no-list = no { $key } list
prov-answer-no-field = no { $key }
# $verb is the provider's own operation (terminate, destroy, stop)
prov-read-back-failed = { $verb } accepted, but the read-back failed: { $error }
prov-removal-gone = delete accepted; { $provider } no longer lists the { $what }
prov-removal-still-listed = { $provider } still lists the { $what }
prov-removal-read-back-failed = delete accepted, but the read-back failed: { $error }
# a call in a report or a --dry-run plan, followed by how it is read back
prov-call-read-back = { $call }   (read back)
prov-call-read-back-until = { $call }   (read back until { $id } is no longer listed)
prov-no-instance = { $name }: no { $what }: pass --instance ID, set [instance] id, or run inside the { $inside } ({ $var })
prov-no-instance-fix = pass --instance ID or set [instance] id (inside the { $inside }, { $var } names it)
# a listing the key may not make: what is unknown, then why
prov-gap = { $what }: { $error }
prov-no-snapshots = manage snapshots ({ $why })
prov-no-deadline = hold a release deadline ({ $provider } has no server-side deadline)

# A cleanup: one delete after another, within one bound
prov-cleanup-image-stayed = not tried: image { $image } that uses it was not deleted
prov-cleanup-ran-out = not tried: the cleanup's { $seconds } s ran out before { $id } was reached
prov-cleanup-no-answer = no answer to deleting { $id } within { $seconds } s, the whole cleanup's bound: it may still be under way; `gpumeter sweep` shows what the provider lists now
prov-cleanup-not-confirmed = { $id }: NOT confirmed: { $summary }
prov-cleanup-failed = { $id }: { $error }
prov-cleanup-summary = { $done } of { $total } deleted and read back
prov-cleanup-summary-first = { $summary }; { $first }
prov-cleanup-and-more = { $summary } (and { $more } more)
prov-cleanup-not-here = a cleanup as one call (it runs one delete at a time)

# Deleting what an instance may use: freeing it first, and the proof it is gone.
# $what is the resource in words (disk d-1), $free and $delete the provider's calls.
prov-free-unlisted-user = { $what } is now used by { $on }, which the provider does not list as an instance: not freed, not deleted
prov-free-shown-free = free
prov-free-shown-on = on { $instance }
prov-free-moved = { $what } is now used by instance { $on } ({ $state }), where the plan showed it { $shown }: not freed, not deleted
prov-free-in-use = { $what } is in use by instance { $on }, which is { $state }: not freed, not deleted
# how it was proved gone
prov-gone-not-found = the provider answers not found for its id
prov-gone-unlisted = the provider did not list it on { $reads } reads in a row
prov-gone-state = the provider reads it back `{ $state }`
# what the provider said, after "the provider"
prov-said-listed = still lists it ({ $state })
prov-said-gone = shows it gone ({ $how })
prov-said-unread = could not be read ({ $error })
prov-delete-unread = { $what } could not be read before deleting it ({ $error }): nothing sent
prov-delete-user-unread = { $what } is used by { $on }, whose state could not be read ({ $error }): not freed, not deleted
prov-free-accepted = { $free } from { $on } was accepted
prov-free-failed = { $free } from { $on } failed ({ $error })
prov-free-not-freed = { $outcome }, but the provider { $said }: { $what } not deleted
prov-delete-not-found = { $what } is gone: the provider answers { $delete } with not found ({ $error })
prov-deleted = { $what } deleted: { $how }
prov-delete-accepted-but = { $delete } was accepted, but the provider { $said }
prov-deleted-unclear = { $what } deleted: { $delete } had no clear answer ({ $error }), but { $how }
prov-delete-failed = { $delete } failed ({ $error }); the provider { $said }

# The demo cloud
prov-demo-reset-fix = start afresh with `gpumeter --demo --reset`
prov-demo-not-a-cloud = { $path } is not a demo cloud ({ $error }); start afresh with `gpumeter --demo --reset`
prov-demo-io-fix = check that { $path } can be written (--data-dir), or start afresh with `gpumeter --demo --reset`
prov-demo-cleanup-one-at-a-time = a cleanup deletes one resource at a time
prov-demo-already-released = already released
prov-demo-released = released
# "not running" / "not stopped", and what a stop or a start did
prov-demo-was-running = running
prov-demo-was-stopped = stopped
prov-demo-stopped = stopped
prov-demo-started = started
prov-demo-not = not { $was } ({ $state })
prov-demo-deadline-cancelled = deadline cancelled
prov-demo-deadline = deadline { $at }
prov-demo-snapshots-cleaned = deleted { $deleted } snapshot(s), kept { $kept }
prov-demo-no-such = { $id } does not exist in the demo cloud
prov-demo-in-use-running = { $id } is in use by running instance { $instance }
prov-demo-in-use-image = { $id } is in use by image { $image }
prov-demo-the-instance = the demo instance
prov-demo-call-read-back = demo: read back { $target }
prov-demo-call-detach = demo: detach { $id } from { $on }
prov-demo-call-delete = demo: delete { $kind } { $id }
prov-demo-gone = { $id } is no longer listed
prov-demo-still-listed = { $id } is still listed

# The key-pair clouds' files and variables, HTTP, INI files, no provider
prov-cli-file-unreadable = cannot read { $path }: { $error }
prov-cli-file-malformed-at = { $path } is malformed (line { $line }, column { $column }): expected { $expected }
prov-cli-file-malformed = { $path } is malformed: expected { $expected }
prov-cli-file-fix = fix or remove { $path }
prov-base-url-not-http = { $var } must be an http:// or https:// URL, not `{ $base }`
prov-base-url-fix = set { $var } to an http:// or https:// URL, or unset it
prov-http-timeout = timed out after { $after }
prov-http-connect = cannot connect: { $error }
prov-http-failed = request failed: { $error }
prov-http-no-attempt = no attempt made
prov-ini-bad-header = a section header must be `[name]`
prov-ini-bad-line = expected `[section]` or `key = value`
prov-ini-no-name = a setting needs a name before `=`
prov-ini-no-section = a setting before any `[section]`
prov-none-fix = set [instance] provider in the config (one of { $ids }), or try --demo

# An instance role's keys; the role's service is the subject ("the ECS RAM role at ... (lists ...)")
prov-role-not-a-name = lists a role name that is not one
prov-role-not-ready = says the role keys are not ready (Code `{ $code }`)
prov-role-status = answered HTTP { $status }
prov-role-field-empty = { $who } sent keys with a field empty: expected { $expected }
prov-role-not-expected = sent role keys that are not { $expected }
prov-role-no-expiry = { $no_expiry }: expected { $expected }
prov-role-no-keys = no keys were given

# Lambda Cloud
lambda-no-instance = lambda: no instance: pass --instance ID or set [instance] id in the config (Lambda has no metadata service, and no instance has this machine's hostname)
lambda-no-instance-fix = pass --instance ID or set [instance] id in the config
lambda-answer-no-instance = no instance
lambda-already-gone = already released: Lambda no longer lists the instance this data directory saw
lambda-already-terminated = already released (`terminated`)
lambda-terminated-gone = terminate accepted; Lambda no longer lists it
lambda-terminated = terminate accepted; Lambda reads back `terminated`
lambda-reads-back = Lambda reads back `{ $status }`
lambda-plan-instance = <the instance with this machine's hostname>
lambda-no-stop = stop or start (Lambda Cloud has no stop or pause: an instance bills until it is terminated)
lambda-no-snapshots = Lambda Cloud has no snapshots
lambda-delete-unsupported = delete a { $kind } (Lambda Cloud bills only file systems apart from the instance)

# Vast.ai
vast-word-instance = instance
vast-word-container = container
vast-answer-no-id-or-status = no instance id or status
vast-answer-too-many-pages = more than { $pages } pages
vast-no-status = no status
vast-already-gone = already destroyed: Vast no longer lists the instance this data directory saw
vast-destroyed-nothing-to = Vast no longer lists the instance: it is destroyed; nothing to { $verb }
vast-already-stopped = already stopped (`{ $status }`)
vast-already-running = already running (`{ $status }`)
vast-destroyed = destroy accepted; Vast no longer lists it
vast-not-listed = Vast no longer lists the instance
vast-accepted-reads-back = { $verb } accepted; Vast reads back `{ $status }`
vast-reads-back = Vast reads back `{ $status }`
vast-gap-volumes = volumes unknown (any would survive a destroy)
vast-gap-volumes-listing = volumes unknown
vast-no-snapshots = Vast.ai bills none; its container snapshots go to your own registry
vast-delete-unsupported = delete a { $kind } on its own (an instance's storage goes when it is destroyed: release it)
vast-sheet-source = { $source }; storage and bandwidth at the host's own rates from the Vast.ai API

# RunPod; $action is RunPod's own (terminate, stop, start)
runpod-word-pod = pod
runpod-answer-no-pod = no pod
runpod-gone-nothing-to = RunPod no longer lists the pod: it is terminated; nothing to { $action }
runpod-already-gone = already terminated: RunPod no longer lists the pod this data directory saw
runpod-terminated-nothing-to = is terminated; nothing to { $action }
runpod-already-terminated = already terminated (`TERMINATED`)
runpod-already-stopped = already stopped (`EXITED`)
runpod-already-running = already running (`RUNNING`)
runpod-accepted-gone = { $action } accepted; RunPod no longer lists it
runpod-not-listed = RunPod no longer lists the pod
runpod-accepted-reads-back = { $action } accepted; RunPod reads back `{ $status }`
runpod-reads-back = RunPod reads back `{ $status }`
runpod-refused = { $action } refused ({ $error }); { $summary }
runpod-gap-volumes = network volumes unknown (any would survive a release)
runpod-gap-volumes-listing = network volumes unknown
runpod-no-snapshots = RunPod has no snapshots
runpod-delete-unsupported = delete a { $kind } on its own (a pod's disks go when the pod is terminated: release it)

# The command adapter; $key is a key of [command] (inventory, list_account), $action an action's label
cmdp-no-start = start a stopped instance
cmdp-no-cancel = cancel a deadline (the extend command only sets one)
cmdp-not-set = { $action } (set [command] { $key } in the config)
cmdp-no-inventory = list what bills (set [command] inventory in the config)
cmdp-no-delete = delete a { $kind } (set [command] delete in the config)
cmdp-no-list-account = sweep the account (set [command] list_account in the config)
cmdp-call-inventory = inventory command
cmdp-call-list-account = list_account command
cmdp-bad-json = the { $key } command printed JSON that does not follow the schema: { $error }
cmdp-bad-json-fix = make [command] { $key } print the documented JSON (see docs/providers/command.md)
cmdp-not-an-account = expected {"{"}"resources": [...]{"}"}: { $error }
cmdp-not-a-size = `{ $value }` is not a size or amount
cmdp-not-an-amount = `{ $value }` is not an amount
cmdp-spawn-fix = check the program and its path in [command] in the config
cmdp-timeout-fix = the command ran past [command] timeout: raise it, or see what the command waits on
cmdp-unfilled-instance = no instance id: set [instance] id or pass --instance
# $slot is the placeholder as written ({keep})
cmdp-unfilled = no { $slot }
cmdp-cannot-run = (cannot run: { $why })
cmdp-run-spawn = `{ $program }` could not be started: { $reason }
cmdp-run-timeout = `{ $program }` did not finish within { $after } and was killed
cmdp-run-failed = `{ $program }` failed ({ $status })
cmdp-run-failed-said = `{ $program }` failed ({ $status }): { $stderr }
cmdp-run-empty = the command is empty
cmdp-run-signal = killed by a signal
cmdp-run-exit-status = exit status { $code }
# what the inventory command shows after an action
cmdp-shows-no-instance = no instance
cmdp-shows-no-deadline = no deadline
cmdp-shows-deadline = deadline { $at }
cmdp-shows = { $instance }, { $snapshots } snapshot(s), { $deadline }
cmdp-call-read-back = { $key } command (read back)
cmdp-call-read-back-effect = { $call } (read back until it shows the effect)
cmdp-call-read-back-until = { $call } (read back until { $id } is no longer listed)
cmdp-done-unverified = the { $action } command exited 0: done by exit status; not verified (no [command] inventory to read back)
cmdp-confirmed = { $action } confirmed by the inventory command: { $shows }
cmdp-exited-but-shows = the { $action } command exited 0, but the inventory command shows { $shows }
cmdp-failed-shows = { $error }; the inventory command shows { $shows }
cmdp-exited-read-back-failed = the { $action } command exited 0, but reading back failed ({ $error })
cmdp-delete-unverified = the delete command exited 0: done by exit status; could not verify (no [command] list_account or inventory to read back)
cmdp-delete-never-listed = the delete command exited 0; could not verify: the inventory command did not list { $id } before the delete (set [command] list_account)
cmdp-delete-confirmed = delete confirmed: the { $key } command no longer lists it
cmdp-delete-still-listed = the delete command exited 0, but the { $key } command still lists it
cmdp-delete-read-back-failed = the delete command exited 0, but reading back failed ({ $error })
prov-role-place-why = { $place } ({ $why })
