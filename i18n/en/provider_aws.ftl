# AWS: what the adapter itself says, in read-backs, credential lookups and failures.

# lists and shared pieces
aws-call-accepted = { $call } accepted
aws-call-sent-read-failed = { $call } sent, but the read-back failed: { $error }
aws-read-failed = { $done }, but the read-back failed: { $error }
aws-unreadable-answer = unreadable answer: { $what }
aws-too-many-pages = more than { $most } pages: the listing was not read to its end
aws-url-not-http = not an http(s) URL
aws-url-no-host = no host
aws-endpoint-bad = { $service } endpoint `{ $endpoint }`: { $why }
aws-fix-endpoint-url = set { $var } or { $fallback } to an http(s) URL
aws-cannot-be-read = cannot be read: { $error }
aws-is-empty = is empty

# the instance: read-backs of release, stop and start
aws-read-released = { $done }; EC2 no longer lists it
aws-read-not-listed = EC2 no longer lists the instance
aws-read-done-state = { $done }; EC2 reads back `{ $state }`
aws-read-state = EC2 reads back `{ $state }`
aws-already-released-seen = already released: EC2 no longer lists the instance this data directory saw
aws-already-released-state = already released (`{ $state }`)
aws-already-released-gone = already released: EC2 no longer knows the instance it listed
# $verb is `stop` or `start`
aws-released-not-listed-nothing-to = EC2 no longer lists the instance: it is released; nothing to { $verb }
aws-released-nothing-to = is released (`{ $state }`); nothing to { $verb }
aws-already-stopped = already stopped (`{ $state }`)
aws-already-running = already running (`{ $state }`)

# snapshot-clean, images and addresses
aws-malformed-no-snapshot-id = no snapshotId in the answer
aws-malformed-no-root-volume = the instance has no root volume to snapshot
aws-snapshot-not-listed = not listed
aws-snapshot-other-volume = of { $other }, not of { $volume }
aws-snapshot-no-volume = no volume
aws-final-not-completed = the final snapshot { $id } is { $status }, not completed, after { $reads } read(s); no snapshot deleted
aws-clean-nothing = nothing to delete; { $kept } snapshot(s) kept
aws-clean-read-failed = deletions sent, but the read-back failed: { $error }
aws-clean-summary = deleted { $deleted } snapshot(s), kept { $kept }
aws-clean-final = ; final snapshot { $id }
aws-clean-final-missing = ; final snapshot { $id } NOT found
aws-clean-still-listed = ; still listed: { $ids }
aws-clean-refused = ; refused: { $error }
aws-image-deregistered = { $id } deregistered
aws-image-still-listed = { $id } is still listed
aws-address-released = { $id } released
aws-address-still-allocated = { $id } is still allocated

# the adapter: instance, plans, gaps, what it cannot do
aws-no-instance-imds-off = no instance: pass --instance ID or set [instance] id in the config (the metadata service is disabled)
aws-fix-no-instance = pass --instance ID or set [instance] id in the config
aws-plan-this-instance = <this instance, from the metadata service>
aws-plan-root-volume = <the root volume>
aws-plan-association = <its association, as DescribeAddresses reads it>
aws-plan-read-back = { $call }   (read back)
aws-gap-released-unrecorded = volumes and elastic IPs left by released { $id }: this data directory never recorded its resources while it ran, and EC2 keeps no link from them to a terminated instance, so one may still bill unlisted (`gpumeter sweep` lists all in { $region })
aws-unsupported-deadline = hold a release deadline (EC2 has no instance deadline)
aws-unsupported-elb = reach Elastic Load Balancing (no client for it in this run)
aws-unsupported-delete-kind = delete a { $kind } (not built for this adapter yet)
aws-disk-in-use-stopped = in-use by a stopped instance

# the inventory: what could not be read
aws-unreadable-launch-time = instance { $id } has no readable launchTime
aws-unreadable-state = instance { $id } is in an unknown state `{ $state }`
aws-unreadable-instance = instance { $id } could not be read

# Elastic Load Balancing
aws-elb-unknown-state = unknown state
aws-elb-no-healthy-target = { $state }, no healthy target
aws-elb-deleted = { $arn } deleted; Elastic Load Balancing no longer knows it
aws-elb-answer-unnamed = an answer that does not name it
aws-elb-still-reads-back = { $call } accepted, but { $arn } still reads back { $last }

# EC2's answers
aws-check-keys-and-permissions = ; check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the account's permissions
aws-no-ec2-error = the answer carried no EC2 error
aws-what-credentials = the credentials
aws-what-access-key = the access key
aws-what-signature = the signature
aws-what-session-token = the session token
aws-xml-not-xml = not XML ({ $error })
aws-xml-wrong-root = expected <{ $action }Response>, got <{ $root }>
aws-xml-missing = no <{ $element }>
aws-xml-unreadable-expiration = an unreadable <Expiration>

# the credential chain: where keys come from and where they were looked for
aws-from-env = the environment
aws-from-given = given
aws-from-profile = profile { $profile }
aws-from-profile-key = { $key } of profile { $profile }
aws-from-env-credential-source = the environment (credential_source of profile { $profile })
aws-tried-role-arn = role_arn of profile { $profile }
aws-tried-web-identity = { $var } and web_identity_token_file of profile { $profile }
aws-tried-process = credential_process in { $place }
aws-tried-instance-role = the instance role at { $endpoint }
aws-tried-instance-role-off = the instance role (off: { $var })
aws-tried-instance-role-source = the instance role at { $endpoint } (credential_source of profile { $profile })
aws-tried-credential-source = credential_source { $source } of profile { $profile }
aws-region-from-profile = the profile's region in ~/.aws/config
aws-region-from-imds = the instance metadata service

# the credential chain: a profile that cannot be used
aws-fix-profile = fix the profile in ~/.aws/config
aws-sso-profile = profile { $profile } is an SSO profile, and SSO tokens are not read here
aws-fix-sso = run `aws sso login --profile { $profile }`, then `eval "$(aws configure export-credentials --profile { $profile } --format env)"`, or use a profile with `credential_process = aws configure export-credentials --profile { $profile } --format process`
aws-web-identity-no-role = { $from } is set but no role is: set { $var } or the profile's role_arn
aws-profile-both-sources = profile { $profile } has both source_profile and credential_source
aws-profile-no-source = profile { $profile } has role_arn but neither source_profile nor credential_source
aws-source-profile-missing = the source_profile { $name } of profile { $profile } does not exist
aws-source-profile-loop = source_profile loop: { $chain }
aws-role-chain-too-long = more than { $most } roles chained: { $chain }
aws-source-profile-no-keys = the source_profile { $name } of profile { $profile } has no credentials
aws-source-profile-no-role = the source_profile { $name } has no role_arn
aws-credential-source-unknown = the credential_source { $source } of profile { $profile } is not one of Environment, Ec2InstanceMetadata, EcsContainer
aws-file-unreadable = cannot read { $path }: { $error }

# the credential chain: keys that cannot be used
aws-expiration-unreadable = { $var } is `{ $value }`, not an instant such as 2026-12-05T18:30:00Z
aws-fix-expiration = export { $var } as `aws configure export-credentials --format env` writes it, or unset it for long-term keys
aws-keys-expired = the keys from { $from } expired at { $at } ({ $var }); nothing was sent with them
aws-fix-keys-expired = export fresh keys (`eval "$(aws configure export-credentials --format env)"`) and start again

# credential_process
aws-process-failed = credential_process in { $from } { $why }
aws-fix-process = run the command by hand to see what it says
aws-process-no-start = could not start: { $error }
aws-process-timeout = took over { $seconds }s
aws-process-error = failed: { $error }
aws-process-exit = failed ({ $status })
aws-process-no-json = printed no JSON with Version, AccessKeyId and SecretAccessKey
aws-process-version = answered Version { $version }, not 1

# container credentials
aws-container-token-file-unreadable = { $var } { $path } cannot be read: { $error }
aws-container-token-lines = the container authorization token ({ $from }) is not one header line
aws-container-plain-http = plain http to `{ $host }` is not allowed
aws-fix-container-url = use https, a loopback address or one of { $hosts }
aws-container-failed = the container credentials endpoint ({ $from }) { $why }
aws-answered-http = answered HTTP { $status }
aws-container-no-json = answered no JSON with AccessKeyId and SecretAccessKey

# STS
aws-token-file-failed = the web identity token file { $path } ({ $from }) { $why }
aws-fix-token-file = check { $var } or the profile's web_identity_token_file
aws-sts-message = { $message } (role { $arn } from { $from })
aws-what-sts-token = the token given to STS
aws-what-sts-credentials = the credentials given to STS

# the instance metadata service
aws-imds-did-not-tell = the instance metadata service at { $endpoint } did not tell the { $what } ({ $why }); pass --instance ID or set [instance] id in the config
aws-imds-what-token = session token
aws-imds-what-instance-id = instance id
aws-imds-what-region = region
aws-imds-what-role = instance role
aws-imds-no-role = no role attached
aws-imds-role-unreadable = unreadable instance role credentials
aws-imds-spot-unreadable = unreadable spot instance-action notice: { $error }
