## Why a fleet account could not be read (the fleet table and its stderr lines)
## JSON keeps these in English.

fleet-could-not-list = could not list the instances: { $error }
fleet-could-not-sweep = could not sweep the account: { $error }
# $seconds is how long the listing was given.
fleet-no-answer-instances = no answer in { $seconds } s (instances)
fleet-no-answer-sweep = no answer in { $seconds } s (sweep)
fleet-no-answer = no answer in { $seconds } s
# $gaps lists the provider's listings the key may not make.
fleet-listed-without = listed without { $gaps }

## A region the sweep could not read (JSON keeps the English)

sweep-not-a-region = not a region name

## What became of an alert at the webhooks (the cockpit's log, the watchdog's log)

# $hook names the webhook as configured: "webhook slack #1 (hooks.slack.com)".
webhook-sent = { $hook }: sent { $key }
webhook-held = { $hook }: held { $key }: { $why }
webhook-failed = { $hook }: { $error }
webhook-send-stopped = the send stopped: { $error }
webhook-no-answer = no answer within { $seconds }s
webhook-held-repeat = already sent at { $since }, not again before { $until }
webhook-held-busy = more than { $count } a minute
webhook-dropped = webhooks: dropped the alert { $key } unsent: { $count } newer ones were waiting
# Who sends an alert when no instance is watched, in its title: "gpumeter: the cockpit".
webhook-from-cockpit = the cockpit
webhook-no-runtime = webhooks: { $key } not sent: no async runtime

## Where a credential or a region was looked for, and what a provider refused: the adapters'
## phrases inside a credential error. Names, variables and paths ($a, $b) stay as they are.

place-environment = the environment
place-instance-metadata = the instance metadata service
place-aws-profile-region = the profile's region in ~/.aws/config
place-the-token-to-sts = the token given to STS
place-the-credentials = the credentials
place-the-credentials-to-sts = the credentials given to STS
place-the-access-key = the access key
place-the-signature = the signature
place-the-sts-token = the STS token
place-the-api-key = the API key
place-the-session-token = the session token
place-home-unset = { $a } (HOME is unset)
place-ecs-ram-role-mode = { $a } (EcsRamRole)
place-no-such-profile = { $a } (no such profile)
place-credential-source = { $a } (credential_source of profile { $b })
place-role-arn = role_arn of profile { $a }
place-web-identity = { $a } and web_identity_token_file of profile { $b }
place-instance-role-at = the instance role at { $a }
place-instance-role-off = the instance role (off: { $a })
place-profile-in = profile `{ $a }` in { $b }
place-region-id-of = region_id of { $a }
place-oidc-role-at = the OIDC role { $a } at { $b }
place-ecs-ram-role-at = the ECS RAM role at { $a }
place-cvm-role-at = the CVM role at { $a }
place-credential-process-in = credential_process in { $a }
place-in = { $a } in { $b }

## A prepaid balance and when it runs out, as status says it

# $vouchers are drawn on before the cash in $available.
balance-with-vouchers = { $available } (vouchers { $vouchers })
# $bound is "≤ " and $at_least "≥ " where only this instance's burn is counted; $note says so.
balance-line = { $balance } · runs out in { $bound }{ $left } at { $at_least }{ $burn }/h{ $note }
balance-line-no-burn = { $balance } · nothing burns now
# The balance guard's alerts, in the cockpit's log and the watchdog's.
balance-alert-hours-left = balance: under { $hours }h of burn left ({ $available } at { $at_least }{ $burn }/h{ $note })
balance-alert-floor = balance: { $available }, at or under the floor of { $floor }

## A data directory other users can look into (the cockpit's events, the watchdog's log)

files-dir-open = the data directory { $dir } is open to other users (mode { $mode }); `chmod 700 { $dir }` keeps even the names of its files to yourself
files-link-unreadable = somewhere unreadable
files-is-link = it is a symbolic link (to { $to }), and gpumeter keeps this file only as a regular file in its data directory: remove the link, or pass --data-dir DIR
files-is-dir = it is a directory, not a regular file
files-is-fifo = it is a FIFO (named pipe), not a regular file
files-is-socket = it is a socket, not a regular file
files-is-char-device = it is a character device, not a regular file
files-is-block-device = it is a block device, not a regular file
files-is-other = it is not a regular file

## The cockpit's own ledger troubles, in its events

# $why is why the cockpit stopped writing this run's history.
record-stopped = { $why }; this run's spend history is not recorded
record-no-session = cannot start a session: { $error }
record-writer-stopped = the writer stopped
cockpit-no-shared-deadline = cannot share the deadline with the watchdog: { $error }

# what the cockpit records and its webhooks say on their own
record-no-answer-before-quit = no answer before the cockpit quit
webhook-not-sent-no-runtime = not sent: no async runtime
ledger-not-a-database = the file is not a database
ledger-malformed = the database disk image is malformed
