# gpumeter's messages in English: the commands' output. Each id is in the same file under
# i18n/zh-CN/, with the same arguments, and no id is in two files; tests fail otherwise.

# checklist
checklist-after-release = After releasing { $instance }, these keep billing:
checklist-released = { $instance } is released; these are still billing:
checklist-still-billing = Still billing:
checklist-not-checked = not checked: { $what }
checklist-nothing = Nothing would keep billing after a release.
checklist-nothing-listed = Nothing listed would keep billing after a release, but not everything could be read:
checklist-price-unknown = price unknown
checklist-per-month = { $amount }/month
checklist-days-old = { $days }d old
# $known is the priced part with its currency, $count how many things have no price.
checklist-total = Total that keeps billing: { $count ->
        [0] { $known }
       *[other] ≥ { $known } + { $count } unknown
    }/month
checklist-total-and-unchecked = Total that keeps billing: { $count ->
        [0] { $known }
       *[other] ≥ { $known } + { $count } unknown
    }/month (and what could not be checked)
checklist-exposed = Data others can read:

# status
status-cloud = cloud
status-instance = instance
status-cost = cost
status-prices = prices
status-deadline = deadline
status-warning = warning
status-none-listed = none listed
status-instance-line = { $id } "{ $name }" on { $provider }, { $sku }, { $state }
status-cost-line = { $total } { $currency } so far (billed { $billed }): compute { $compute }, bandwidth { $bandwidth }, storage { $storage }, extras { $extras }; { $burn } { $currency }/h now
status-incomplete = incomplete, left out: { $unknown }
status-cost-unknown = unknown: no price sheet prices { $sku }
status-prices-live = the provider's own for compute; the rest from sheet { $sheet }
status-prices-sheet = sheet { $sheet } ({ $region })
status-prices-other-region = sheet { $sheet } ({ $region }), an estimate for { $instance_region }
status-no-region = no region
status-this-region = this region
status-deadline-released = none: the instance is released
status-deadline-none = none set and none held by the provider
status-forced-release-label = released
status-forced-release = by { $provider } in { $left } ({ $at }): { $days } days shut down erases { $erases }; a start resets the clock
status-forced-release-due = by { $provider } now: { $days } days shut down are over; { $erases } may be erased already
status-resources = resources ({ $count }), a month after a release:
status-survives = survives
status-goes-with-it = goes with it
status-unpriced = unpriced
status-still-billing = still billing: { $amount } a month
status-keeps-billing = keeps billing after a release: { $amount } a month
status-unpriced-line = unpriced: { $what }
status-not-checked = not checked: { $what }
status-gpu-none = none: { $why }
status-gpu-none-by-choice = none, as expected: the instance runs without its GPUs (no-GPU mode)
status-gpu-none-listed = NVML reports no GPU
status-col-name = NAME
status-col-util = UTIL
status-col-load = LOAD
status-col-mem = MEM MiB
status-col-power = POWER W
status-col-temp = TEMP
status-col-procs = PROCS
status-findings = findings

# sweep: shut-down instances the platform releases on its own.
sweep-forced-heading = Shut down, and { $provider } releases them on its own (a start resets the clock):
sweep-forced-in = released in { $left } ({ $at }), { $days } days after its shutdown
sweep-forced-due = due now: { $days } days shut down are over
sweep-forced-erases = erases { $erases }
sweep-forced-not-checked = shut-down instances

# The burn a prepaid balance is drawn down by, where it leaves something out.
burn-this-instance-only = (this instance only; other instances not counted)
burn-uncounted = ({ $count ->
        [one] { $count } other running instance
       *[other] { $count } other running instances
    } not priced, not counted)

# --version's long form and the manual pages
meta-version-gpus = GPUs: NVML, loaded at run time from the NVIDIA driver (libnvidia-ml.so.1)
meta-version-sheets = bundled price sheets:
meta-version-as-of = as of { $date }
meta-man-failed = the manual page: { $error }

# A cloud detected but not set up: what its actions need
context-no-provider = no provider configured: set [instance] provider in the config, or try --demo
context-configure-provider = configure the provider
context-ways-or = { $init } or { $last }
context-ways-or-many = { $init }, or { $last }
context-detected-needs = stop, release, the deadline and what keeps billing (disks, snapshots, addresses) need { $provider } credentials: { $give } ({ $why })
cred-way-aws-1 = set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
cred-way-aws-2 = name a profile with AWS_PROFILE
cred-way-aws-3 = attach an instance role
cred-way-alibaba-1 = set ALIBABA_CLOUD_ACCESS_KEY_ID and ALIBABA_CLOUD_ACCESS_KEY_SECRET
cred-way-alibaba-2 = configure the aliyun CLI
cred-way-alibaba-3 = attach a RAM role to the instance
cred-way-tencent-1 = set TENCENTCLOUD_SECRET_ID and TENCENTCLOUD_SECRET_KEY
cred-way-tencent-2 = configure tccli
cred-way-tencent-3 = bind a CAM role to the instance
cred-way-lambda-1 = set LAMBDA_API_KEY
cred-way-runpod-1 = set RUNPOD_API_KEY
cred-way-vast-1 = set VAST_API_KEY
cred-way-vast-2 = CONTAINER_API_KEY inside the instance
cred-way-autodl-1 = set AUTODL_TOKEN
cred-way-autodl-2 = write the token to ~/.config/gpumeter/autodl-token (or the file AUTODL_CREDENTIALS_FILE names)
