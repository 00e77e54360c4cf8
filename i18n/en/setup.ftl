# gpumeter's English messages: the text doctor, verify, init and the progress line print.
# Every id must be in the file of the same name under i18n/zh-CN/, with the same arguments, and
# in no other file.

# doctor
doctor-found-from = { $value } (from { $from })
doctor-not-detected = not detected: { $fix }
doctor-provider = provider
doctor-provider-fix = give --provider or set [instance] provider (gpumeter init writes it)
doctor-instance = instance
doctor-instance-fix = give --instance or set [instance] id; on AWS the metadata service tells it
doctor-region = region
doctor-region-fix = give --region or set [instance] region
doctor-sku = SKU
doctor-sku-fix = set [pricing] sku to the instance type
doctor-detection = detection
doctor-policy-alert = alert
doctor-policy-stop = stop
doctor-policy-release = release
doctor-deadline-none = none set
doctor-no-config = no config file: gpumeter init writes one
doctor-config = config { $path }
doctor-alerts-only = alerts only: needs no provider key
doctor-acts-stop = acts: needs the provider's key, stop permission and a watchdog
doctor-acts-release = acts: needs the provider's key, release permission and a watchdog
doctor-policy = policy
doctor-policy-detail = deadline { $deadline }, at zero { $at_zero }, when idle { $on_idle }; { $needs }; { $config }
doctor-nvml-fix = { $why }; install the NVIDIA driver (libnvidia-ml.so.1), or try --demo
doctor-credentials = credentials
doctor-no-provider = no provider to sign in to
doctor-demo-needs-none = the demo cloud needs none
doctor-command-keys = the command provider runs your own commands, with their own keys
doctor-not-looked-for = not looked for
doctor-credentials-found = found: { $from }
doctor-may-read = may read
doctor-may-stop = may stop
doctor-may-release = may release
doctor-may-delete = may delete
doctor-watchdog-service = watchdog service
doctor-service-installed = installed: { $path }
doctor-service-missing = not installed (the cockpit starts a watchdog, but not at boot): gpumeter watchdog --install-service
doctor-service-no-systemd = not installed, and no systemd user manager here: run `gpumeter watchdog` under your own supervisor
doctor-sheet = price sheet
doctor-sheet-none = none for this instance: set [pricing] sheet and sku
doctor-sheet-stale = { $id } is dated { $as_of }, { $age } days ago (over { $limit }): check its prices, or update gpumeter
doctor-sheet-ok = { $id } as of { $as_of } ({ $age } days old)
doctor-clock = clock
doctor-clock-synchronised = synchronised ({ $from })
doctor-clock-not-synchronised = not synchronised ({ $from }): the deadline and signed calls need it; sudo timedatectl set-ntp true
doctor-clock-unknown = unknown: neither timedatectl nor the kernel said
doctor-zone = time zone
doctor-zone-fix = { $why }: a deadline such as 18:30 means 18:30 UTC; set TZ=Area/City

# init
init-wrote =
    wrote { $path } (mode 0600)
    next: gpumeter doctor, then gpumeter
init-cannot-write = cannot write { $path }: { $error }
init-replace = { $path } exists. Replace it? [y/N]
init-cannot-read = cannot read the answer: { $error }
init-ask-deadline = Deadline (4h, 18:30; empty for none):
init-ask-at-zero = At zero: alert, stop or release? [alert]
init-ask-idle = Idle after (30m):
init-ask-on-idle = When idle: alert, stop or release? [alert]
init-ask-webhook = Webhook URL (empty for none):

# the progress line while a provider answers
progress-spinning = { $what } ({ $seconds } s)
progress-waiting = { $what } ({ $seconds } s so far)

# verify
verify-verdict-pass = pass
verify-verdict-incomplete = incomplete
verify-verdict-warn = warn
verify-verdict-fail = fail
verify-headline = verify: { $verdict }: { $headline }
verify-name-unknown = name unknown
verify-gpu = GPU { $index }: { $name }
verify-col-gpu = GPU
verify-col-check = CHECK
verify-col-measured = MEASURED
verify-col-rated = RATED
verify-col-ratio = RATIO
verify-col-verdict = VERDICT
verify-machine = machine
verify-gpu-label = GPU { $index }
verify-bench-not-run = benchmark not run: { $why }
verify-not-available = n/a
verify-no-gpu = verify: no GPU can be read: { $why }
doctor-from-flag = flag
doctor-from-config = config
verify-no-sku = no SKU `{ $sku }` in sheet { $sheet }
doctor-deadline-at = at { $time }
doctor-deadline-in = in { $span }
doctor-nvml-found = { $count } × { $model }, driver { $driver }
doctor-driver-unknown = unknown
doctor-found-by-chain = found through the provider's credential chain
doctor-not-checked = not checked: { $why }
doctor-command-not-checked = the command provider runs your own commands
doctor-only-ec2 = gpumeter asks only EC2 for a dry run, not { $provider }
doctor-no-dry-run = { $provider } has no dry run
doctor-no-key = no key to ask with
doctor-no-endpoint = no EC2 endpoint
doctor-no-instance-id = no instance id (give --instance or set [instance] id)
doctor-no-volume = no volume of the instance to ask about
doctor-asked-dry-run = ec2:{ $action }, asked with DryRun
doctor-zone-set-fix = set timezone = "Asia/Shanghai" (an IANA name) in the config, or TZ
doctor-zone-utc = UTC: no timezone setting, no TZ and no /etc/localtime: { $fix }

# the zone times are read in, as doctor names it
zone-described = { $name } (from { $source })
zone-unnamed = an unnamed zone
zone-from-setting = the config's `timezone`
zone-from-env = TZ
zone-from-env-not-understood = TZ, which names no zone this machine knows
zone-from-system = the system zone
zone-this-zone = this zone
zone-clock-moved = { $how ->
        [skips] { $time } does not happen on { $day } in { $zone }: the clocks skip it; the deadline is { $at } { $label }, when they jump past it
       *[twice] { $time } happens twice on { $day } in { $zone }: the deadline is the first, { $at } { $label }
    }

# verify --on-fail
verify-failed = verify failed: { $headline }
verify-alert-stderr = alert: on stderr; no webhook is configured ([notify])
verify-alert-dry-run = dry run: nothing is sent. It would alert { $hooks }
verify-alert-outcome = alert: { $outcome }
verify-sheet-minimum = the sheet bills a { $minimum } minimum
verify-ran-stopped = stopped { $span } in
verify-ran-released = released { $span } in
verify-under-minimum = : the sheet bills a { $minimum } minimum
verify-past-minimum = , past the sheet's { $minimum } minimum
verify-so-costs = , so this machine costs { $cost }
verify-billed = : this machine's compute is billed { $cost }
verify-minimum-hours = { $count }-hour
verify-minimum-minutes = { $count }-minute
verify-minimum-seconds = { $count }-second
verify-span-seconds = { $seconds } s
verify-span-minutes = { $minutes } min
verify-span-hours = { $hours } h
verify-span-hours-minutes = { $hours } h { $minutes } min
verify-not-kept = verify: the verdict is not kept in the ledger: { $error }
verify-on-fail-not-kept = verify: what --on-fail did is not kept in the ledger: { $error }

# looking for the cloud's metadata service
detect-no-answer-within = { $from } did not answer within { $seconds }
detect-no-metadata-service = answer from a metadata service

# the config `gpumeter init` writes: one comment above each key (a line each, after `# `)
init-tpl-head = gpumeter config, written by `gpumeter init`. Every key is optional; the full list is
init-tpl-head-2 = in config.sample.toml. `gpumeter doctor` checks what this file asks for.
init-tpl-nothing-detected = Nothing was detected: name the cloud and the instance here; the cloud is one of { $ids }.
init-tpl-from = { $what } (from { $from }).
init-tpl-provider = The cloud the instance lives in
init-tpl-instance = The instance watched and acted on
init-tpl-region = Its region, which picks the price sheet
init-tpl-sku = The SKU it is priced as, in the region's price sheet
init-tpl-command = The command provider needs its commands: see [command] in config.sample.toml.
init-tpl-release-in = The deadline: this long after the cockpit or the watchdog starts.
init-tpl-release-at = The deadline: the next time the local clock shows this time.
init-tpl-no-deadline = No deadline: set release_in = "4h" or release_at = "18:30" for one.
init-tpl-at-zero = What happens at zero: alert (tell you only), stop or release.
init-tpl-idle-after = Every GPU and the CPU idle this long makes the instance idle.
init-tpl-idle-then = What then happens: alert (tell you only), stop or release.
init-tpl-webhook = Where alerts are posted: the url is a secret, and gpumeter prints only its host.
doctor-said-fix = { $said }; fix: { $fix }
