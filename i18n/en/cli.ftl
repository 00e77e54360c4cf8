# gpumeter's command line in English: `--help` and the manual page. Each message reads exactly as
# the flag's doc comment in src/cli.rs, which a test compares. Ids: the command's path, then
# `about`, `after-help` or `arg-` and the flag's id; `cli-common-arg-` is a flag that reads the
# same in every command that has it.

# clap's own words
cli-clap-usage = Usage:
cli-clap-commands = Commands
cli-clap-options = Options
cli-clap-arguments = Arguments
cli-clap-help = Print help
cli-clap-help-more = Print help (see more with '--help')
cli-clap-help-summary = Print help (see a summary with '-h')
cli-clap-version = Print version
cli-clap-help-command = Print this message or the help of the given subcommand(s)
cli-clap-default = [default: { $value }]
cli-clap-values = [possible values: { $values }]
cli-clap-env = [env: { $name }]

# the manual page's sections, as clap_mangen names them
cli-man-name = NAME
cli-man-synopsis = SYNOPSIS
cli-man-description = DESCRIPTION
cli-man-extra = EXTRA
cli-man-version = VERSION
cli-man-authors = AUTHORS

# gpumeter
cli-about = A terminal cockpit for rented GPUs: live telemetry, a split cost meter, a release countdown and a checklist of what keeps billing.
cli-after-help =
    Examples:
      gpumeter --demo                          the cockpit on simulated GPUs and a demo cloud
      gpumeter --release-in 8h --on-expiry stop
                                               guard this instance: stop it in 8 hours
      gpumeter checklist --provider aws        what keeps billing after a release (exit 3 if any)
      gpumeter estimate --sku p4d.24xlarge --provider aws-us-east-1 --hours-per-day 10 --days 30
      gpumeter report --since 30d              where the money went
      gpumeter completions bash > ~/.local/share/bash-completion/completions/gpumeter
cli-arg-demo = Run on simulated GPUs and a simulated cloud: no GPU, account or config needed
cli-arg-config = Config file [default: config.toml in the user config directory]
cli-arg-theme = The cockpit's colour theme: dark, light, high-contrast, or a theme file
cli-arg-lang = The language of what gpumeter shows: en or zh-CN [default: [ui] language, then LC_ALL, LC_MESSAGES, LANG]. JSON, CSV and metric names stay the same in every language, and a run with --json says everything in English
cli-arg-no-color = The cockpit without colours (also when the NO_COLOR environment variable is set)
cli-arg-data-dir = Where the ledger and the demo cloud's state live [default: the user data directory]
cli-arg-read-only = Hide every destructive key and refuse destructive commands
cli-arg-reset = With --demo: start the demo cloud afresh
cli-arg-scenario = With --demo: the telemetry scenario (training, idle, cpu-bound, memory-leak, egress-burst, shared, mig-slice, power-capped, throttled, pcie-degraded) or a scenario file ending in .toml [default: training]
cli-arg-gpus = With --demo: how many simulated GPUs, 1 to 8 [default: 8]
cli-arg-release-in = Release deadline this long from now (8h, 45m, 90s, 1h30m); overrides the config
cli-arg-release-at = Release deadline at the next 18:30 on the clock of the config's `timezone` (else TZ's, else the system's); overrides the config
cli-arg-on-expiry = What happens at the deadline: alert, stop or release
cli-arg-grace = After the deadline, how long before its policy runs (any key cancels) [default: 2m]

# flags shared by several commands
cli-common-arg-cloud = The provider's API to use: aws, alibaba, tencent, lambda, runpod, vast, autodl, command (the [command] section), or demo (the same as --demo)
cli-common-arg-dry-run = Print the exact calls it would make, and what would happen, without making them
cli-common-arg-gpus = With --demo: how many GPUs, 1 to 8 [default: 1]
cli-common-arg-idle-after = Idle this long (every GPU and the CPU) before the idle policy runs; overrides [idle]
cli-common-arg-instance = The instance id [default: the config's, else this machine's, from the metadata service]
cli-common-arg-json = Print JSON instead of a table
cli-common-arg-kind = Only resources of this kind (repeatable)
cli-common-arg-older-than = Only what was created at least this long ago (30d, 12h, 90m)
cli-common-arg-on-idle = What happens when the instance is idle: alert, stop or release; overrides [idle]
cli-common-arg-stopped-release-after = Release the instance once it has stayed stopped this long (3d, 12h), after the grace period; overrides [idle] stopped_release_after
cli-common-arg-provider = Look the SKU up in this bundled sheet (by id, such as aws-us-east-1)
cli-common-arg-region = The provider's region [default: the config's, else the provider's variable, AWS_REGION]
cli-common-arg-sheet = Look the SKU up in this user sheet
cli-common-arg-tags = Only what carries this tag: KEY=VALUE, or KEY for any value (repeatable; all must match)
cli-common-arg-yes = Do not ask: needed when there is no terminal to ask on

# gpumeter estimate
cli-estimate-about = Pre-rental budget: on-demand, monthly and spot side by side, with the break-even point
cli-estimate-after-help =
    Examples:
      gpumeter estimate --sku p4d.24xlarge --provider aws-us-east-1 --hours-per-day 10 --days 30
      gpumeter estimate --rate 2.50 --currency USD --gpus 8 --hours-per-day 24 --days 7
      gpumeter estimate --compare --gpu H100 --gpus 8 --hours-per-day 12 --days 30
cli-estimate-arg-provider = A bundled sheet by id (see `gpumeter pricing list`)
cli-estimate-arg-sheet = A user price sheet (TOML)
cli-estimate-arg-sku = The SKU to price from the sheet
cli-estimate-arg-instances = How many instances of the SKU
cli-estimate-arg-rate = Inline on-demand price per GPU-hour (instead of a sheet)
cli-estimate-arg-monthly = Inline subscription price per GPU per month (30 days, 720 h)
cli-estimate-arg-spot-rate = Inline spot price per GPU-hour
cli-estimate-arg-currency = Currency of the inline prices (ISO code, such as USD or CNY); with --compare, the currency totals are ranked in
cli-estimate-arg-gpus = GPUs the inline prices are multiplied by; with --compare, the fewest GPUs a SKU has
cli-estimate-arg-hours-per-day = Hours of use per day, 0 to 24
cli-estimate-arg-days = Days in the plan
cli-estimate-arg-egress-gb = Egress over the whole plan, in GB
cli-estimate-arg-egress-rate = Price per GB of egress (overrides the sheet)
cli-estimate-arg-storage-gb = Storage kept for the whole plan, in GB
cli-estimate-arg-storage-rate = Price per GB-month of storage (overrides the sheet)
cli-estimate-arg-runs-per-day = Starts a day: each run is billed with the sheet's step, minimum and boot fee, and the day's hours are split evenly across the runs
cli-estimate-arg-licenses = Licences charged per hour of running [default: one per instance, where the sheet prices licences]
cli-estimate-arg-bandwidth-mbps = Fixed bandwidth in Mbps (overrides the sheet's network.fixed_bandwidth_mbps)
cli-estimate-arg-public-ips = Public IPs: attached while running, idle otherwise, over the whole plan
cli-estimate-arg-load-balancers = Load balancers, billed every hour of the plan
cli-estimate-arg-checkpoint-every = Spot risk: how often the work checkpoints (90m, 1h); adds the expected rerun cost
cli-estimate-arg-reclaims-per-day = Spot reclaims per day of running (overrides the sheet's billing.reclaims_per_day)
cli-estimate-arg-compare = Price the plan on every SKU of every bundled and configured sheet, ranked by total
cli-estimate-arg-gpu = With --compare: a GPU model, matched loosely (`A100 80GB`, `4090`)
cli-estimate-arg-fx = An exchange rate, FROM:TO=RATE (`USD:CNY=7.12`: 1 USD = 7.12 CNY); repeatable

# gpumeter pricing
cli-pricing-about = Bundled and user price sheets

# gpumeter pricing list
cli-pricing-list-about = List the bundled sheets and their SKUs

# gpumeter pricing show
cli-pricing-show-about = Show every price for one SKU
cli-pricing-show-arg-provider = Only look in this bundled sheet (by id, such as aws-us-east-1)
cli-pricing-show-arg-sheet = Look in this user sheet instead of the bundled ones

# gpumeter pricing validate
cli-pricing-validate-about = Check a sheet; on error print file, line, column and what was expected (exit 2)

# gpumeter status
cli-status-about = One snapshot of the GPUs, the host and what you paid for against what you got
cli-status-after-help =
    Examples:
      gpumeter status --sku p4d.24xlarge --provider aws-us-east-1 --require-cuda 12.4
      gpumeter --provider aws status --json
cli-status-arg-sku = The SKU you rent, to compare with the GPUs NVML reports
cli-status-arg-require-cuda = The CUDA version your job needs, such as 12.4; older drivers are reported
cli-status-arg-scenario = With --demo: a bundled scenario (training, idle, cpu-bound, memory-leak, egress-burst, shared, mig-slice, power-capped, throttled, pcie-degraded) or a scenario file ending in .toml [default: training]
cli-status-arg-gpu-model = With --demo: the GPU model as NVML names it [default: NVIDIA A100-SXM4-80GB]
cli-status-arg-seed = With --demo: the simulator's seed [default: 42]
cli-status-arg-at = With --demo: seconds since the simulated start [default: 600]

# gpumeter verify
cli-verify-about = Did you get the GPU you pay for: what NVML sees and a short benchmark, against the card's rated figures. Exit 0 pass, 1 warn, 3 fail, 2 bad input, 4 no GPU
cli-verify-after-help =
    Examples:
      gpumeter verify --sku p4de.24xlarge --provider aws-us-east-1
      gpumeter --provider aws verify --seconds 10 --json --on-fail release
      gpumeter verify --demo --scenario shared --on-fail release --dry-run
cli-verify-arg-sku = The SKU you rent: the GPUs NVML reports are checked against it, and a shortfall is priced by its hourly price. Needs --provider or --sheet
cli-verify-arg-seconds = The longest the benchmark may run, in seconds, 1 to 600
cli-verify-arg-on-fail = When the verdict is fail: alert (stderr and the configured webhooks), or stop or release the instance through the provider (for the cloud, give --provider before `verify`)
cli-verify-arg-dry-run = With --on-fail: print what it would do, and do nothing
cli-verify-arg-require-cuda = The CUDA version your job needs, such as 12.4: the driver and each card's compute capability are checked against it
cli-verify-arg-fail-below = Fail a figure below this percentage of the card's rated one [default: 50]
cli-verify-arg-warn-below = Warn on a figure below this percentage of the card's rated one [default: 70]
cli-verify-arg-scenario = With --demo: a scenario (training, shared, mig-slice, power-capped, throttled, pcie-degraded, ...) or a scenario file ending in .toml [default: training]

# gpumeter checklist
cli-checklist-about = What would keep billing after a release (exit 3 if anything would, 0 if nothing)
cli-checklist-after-help =
    Examples:
      gpumeter checklist --provider aws --instance i-0abc --region us-west-2
      gpumeter checklist --json

# gpumeter sweep
cli-sweep-about = Everything in the region that bills with no running instance using it, by cost (exit 3 if anything does)
cli-sweep-after-help =
    Examples:
      gpumeter sweep --provider aws --region us-west-2
      gpumeter sweep --provider aws --json
      gpumeter sweep --provider aws --all-regions
      gpumeter sweep --kind snapshot --older-than 90d
      gpumeter sweep --tag project=llm
cli-sweep-arg-all-regions = Every region enabled for the account, each priced by its own sheet, in place of one (a provider without regions is swept once, as it is anyway)

# gpumeter cleanup
cli-cleanup-about = Delete what keeps billing: what `sweep` lists, chosen by id, kind, age, tag or attachment. Shows what goes, what each costs a month and what stays, asks (or --yes), and reads each delete back (exit 0 when every delete is confirmed, 1 otherwise)
cli-cleanup-after-help =
    Examples:
      gpumeter cleanup --unattached --kind disk --dry-run
      gpumeter cleanup --id vol-0abc --id eipalloc-0def --yes
      gpumeter cleanup --kind snapshot --older-than 30d
      gpumeter cleanup --tag project=llm --unattached --dry-run
cli-cleanup-arg-ids = Delete this resource (repeatable); the ids `gpumeter sweep` prints
cli-cleanup-arg-unattached = Only what is attached to or associated with nothing
cli-cleanup-arg-all = Everything the sweep lists (still asks, unless --yes)

# gpumeter watchdog
cli-watchdog-about = The headless guard: enforces the deadline and the idle rule, watches spot notices
cli-watchdog-after-help =
    Examples:
      gpumeter watchdog --idle-after 30m --on-idle stop
      gpumeter watchdog --status
      gpumeter watchdog --install-service --dry-run
cli-watchdog-arg-status = Say whether a watchdog guards the instance and when it last checked (exit 1 if none)
cli-watchdog-arg-stop = Stop the instance's watchdog
cli-watchdog-arg-interval = How often it checks (5s, 1m; from 100ms to 1h)
cli-watchdog-arg-inventory-interval = How often it asks the cloud for the instance's inventory while nothing happens (10m, 1h; never more often than it checks). After an action it reads back at once; the demo's cloud, a local file, is read every check
cli-watchdog-arg-install-service = Write a systemd user unit that runs this watchdog (with these flags) at boot and restarts it if it fails; say how to enable it
cli-watchdog-arg-uninstall-service = Remove the systemd user unit --install-service wrote
cli-watchdog-arg-dry-run = With --install-service or --uninstall-service: print what would be written or removed, and change nothing
cli-watchdog-arg-foreground = Stay in the foreground, attached to this terminal (the cockpit starts it detached)
cli-watchdog-arg-scenario = With --demo: the telemetry scenario the watchdog samples
cli-watchdog-arg-gpus = With --demo: how many simulated GPUs [default: 8]

# gpumeter release
cli-release-about = Release (terminate) the instance; what survives keeps billing
cli-release-after-help =
    Examples:
      gpumeter release --dry-run               the calls it would make, and what survives
      gpumeter release --provider alibaba --yes

# gpumeter stop
cli-stop-about = Stop the instance; disks (and on some providers compute) keep billing
cli-stop-after-help =
    Example:
      gpumeter stop --dry-run

# gpumeter start
cli-start-about = Start a stopped instance again (AWS, Alibaba, Tencent, RunPod, Vast.ai, AutoDL and the demo; not Lambda Cloud or `command`); compute bills again from then
cli-start-after-help =
    Example:
      gpumeter start --provider aws --instance i-0abc --dry-run

# gpumeter snapshot-clean
cli-snapshot-clean-about = Delete snapshots beyond the newest N, or exactly those named with --id
cli-snapshot-clean-after-help =
    Examples:
      gpumeter snapshot-clean --keep 1 --final-snapshot --dry-run
      gpumeter snapshot-clean --id snap-0a --id snap-0b
cli-snapshot-clean-arg-keep = How many of the newest snapshots to keep
cli-snapshot-clean-arg-final-snapshot = Take a snapshot of the system disk first
cli-snapshot-clean-arg-ids = Delete exactly this snapshot of the instance (repeatable) instead of all but the newest N; `checklist` lists them with their ages

# gpumeter extend
cli-extend-about = Move the release deadline later (8h, 45m, 90s, 1h30m)
cli-extend-after-help =
    Example:
      gpumeter extend 2h

# gpumeter report
cli-report-about = Spend history from the ledger: per day and component, idle spend, energy, actions, what still bills after a release
cli-report-after-help =
    Examples:
      gpumeter report --since 30d
      gpumeter report --since 7d --csv > spend.csv
cli-report-arg-since = Start: a span back from now (7d, 36h, 90m), a date (2026-05-01), a local time (2026-05-01 18:30) or an RFC 3339 instant
cli-report-arg-until = End, in the same forms [default: now]
cli-report-arg-csv = Print CSV (one row per day and currency) for spreadsheets
cli-report-arg-focus = Print the window as a FOCUS 1.0 dataset (CSV): one row per instance, cost line and hour, every FOCUS column, for FinOps tools that read the clouds' billing exports

# gpumeter audit
cli-audit-about = The provider's bill against the ledger: charges after a release, transfer between regions, overlapping instances, compute billed otherwise than metered, lines nothing explains. Exit 0 when they agree, 3 when anything is found, 2 for a bill it cannot read
cli-audit-after-help =
    Examples:
      gpumeter audit --bill cur-2026-05.csv.gz --since 2026-05-01 --until 2026-06-01
      gpumeter audit --bill focus.csv --bill alibaba-bill.csv --json
      gpumeter audit --bill bill.csv --evidence refund-case
cli-audit-arg-bills = A bill export: FOCUS 1.x CSV, the AWS Cost and Usage Report CSV, or the Alibaba or Tencent bill-details CSV, plain or gzip (repeatable)
cli-audit-arg-since = Start of the span audited, in the forms `report` takes [default: the bills' first charge]
cli-audit-arg-until = End of the span [default: the bills' last charge]
cli-audit-arg-json = Print JSON instead of text
cli-audit-arg-tolerance = How far the bill's compute may be from the meter's, in percent of the meter's (at least 0.01 of the currency)
cli-audit-arg-evidence = Write a refund case into DIR: summary.md, actions.csv, minutes.csv, bill-lines.csv

# gpumeter serve
cli-serve-about = Prometheus metrics on /metrics: telemetry, cost, deadline, leftovers, guards
cli-serve-arg-listen = Address and port to listen on; anything but loopback prints a warning

# gpumeter completions
cli-completions-about = Shell completions for bash, zsh, fish, elvish or powershell, on stdout
cli-completions-after-help =
    Examples:
      gpumeter completions bash > ~/.local/share/bash-completion/completions/gpumeter
      gpumeter completions zsh > "${"{"}fpath[1]{"}"}/_gpumeter"
      gpumeter completions fish > ~/.config/fish/completions/gpumeter.fish

# gpumeter man
cli-man-about = The manual page (roff), on stdout; with --dir, one page per subcommand written there
cli-man-after-help =
    Examples:
      gpumeter man > gpumeter.1 && man ./gpumeter.1
      gpumeter man --dir ~/.local/share/man/man1
cli-man-arg-dir = Write gpumeter.1 and a gpumeter-<subcommand>.1 for each subcommand into DIR

# gpumeter doctor
cli-doctor-about = Checks what gpumeter needs here, one line each with the fix: NVML, the provider and instance, the key and what it may do, the watchdog, the sheet, the clock and the zone. Exit 0 when all the configured deadline policy needs works, 1 otherwise
cli-doctor-after-help =
    Examples:
      gpumeter doctor
      gpumeter --provider aws doctor --json
cli-doctor-arg-json = Print JSON instead of lines: stable keys, every value in English words or numbers

# gpumeter init
cli-init-about = Writes a commented config from what was detected and what you pick; never replaces one without asking (or --force)
cli-init-after-help =
    Examples:
      gpumeter init
      gpumeter --provider aws init --deadline 4h --at-zero stop --idle 30m --yes
cli-init-arg-deadline = The release deadline: a duration from the start (4h, 90m) or a local clock time (18:30)
cli-init-arg-at-zero = What happens when the deadline reaches zero
cli-init-arg-idle = Idle this long (every GPU and the CPU) counts as idle [default: 30m]
cli-init-arg-on-idle = What happens when the instance is idle [default: alert]
cli-init-arg-webhook = A webhook that alerts are posted to (Slack, Feishu/Lark, DingTalk, WeCom by host; any other gets a plain JSON POST)
cli-init-arg-yes = Ask nothing: what no flag gives takes its default
cli-init-arg-force = Replace an existing config without asking

# gpumeter fleet
cli-fleet-about = Every instance and leftover across the configured providers and accounts, by cost
cli-fleet-after-help =
    Examples:
      gpumeter fleet
      gpumeter fleet --tag team=vision --json
      gpumeter fleet --provider alibaba --region cn-hangzhou

    A [[fleet]] table that names no instances is read by listing: every GPU instance the account
    holds in its region and everything that bills there with no instance.
cli-fleet-arg-tags = Only instances and orphans carrying this tag: KEY=VALUE, or KEY for any value (repeatable; all must match)
cli-fleet-arg-regions = Only the accounts in this region (repeatable)
cli-fleet-arg-providers = Only the accounts on this provider (repeatable)

# clap's errors, rebuilt from what clap keeps of them: the first line of a refused command line
cli-err-unknown-arg = unexpected argument '{ $arg }' found
cli-err-unknown-command = unrecognized subcommand '{ $name }'
cli-err-invalid = invalid value '{ $value }' for '{ $arg }'
cli-err-no-value = a value is required for '{ $arg }' but none was supplied
cli-err-possible = possible values: { $values }
cli-err-invalid-why = invalid value '{ $value }' for '{ $arg }': { $why }
cli-err-missing = the following required arguments were not provided: { $args }
cli-err-missing-command = '{ $name }' requires a subcommand but one was not provided (subcommands: { $names })
cli-err-twice = the argument '{ $arg }' cannot be used multiple times
cli-err-conflict = the argument '{ $arg }' cannot be used with { $with }
cli-err-conflict-any = the argument '{ $arg }' cannot be used with one or more of the other specified arguments
cli-err-conflict-command = the subcommand '{ $name }' cannot be used with { $with }
cli-err-conflict-others = one or more of the other specified arguments
cli-err-no-equals = equal sign is needed when assigning values to '{ $arg }'
cli-err-too-many = unexpected value '{ $value }' for '{ $arg }' found; no more were expected
cli-err-too-few = { $wanted } values required by '{ $arg }'; only { $given } { $given ->
        [one] was
       *[other] were
    } provided
cli-err-wrong-count = { $wanted } values required for '{ $arg }' but { $given } { $given ->
        [one] was
       *[other] were
    } provided
cli-err-utf8 = invalid UTF-8 was detected in one or more arguments
cli-err-similar-command = { $count ->
        [one] a similar subcommand exists: { $names }
       *[other] some similar subcommands exist: { $names }
    }
cli-err-similar-arg = { $count ->
        [one] a similar argument exists: { $names }
       *[other] some similar arguments exist: { $names }
    }
cli-err-similar-value = { $count ->
        [one] a similar value exists: { $names }
       *[other] some similar values exist: { $names }
    }
cli-err-tip-as-value = to pass '{ $what }' as a value, use '{ $with }'
cli-err-tip-drop-dashes = subcommand '{ $name }' exists; to use it, remove the '--' before it
cli-err-tip-exists = '{ $flag }' exists
cli-err-tip-sep = {"; "}
# why a value was refused
cli-err-why-decimal = expected a decimal number such as 12.5
cli-err-why-whole = expected a whole number such as 3
cli-err-why-too-large = the number is too large
cli-err-why-provider = `{ $given }` is not one of { $ids }
