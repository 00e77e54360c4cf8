# Traffic by destination: the egress split in status and the cockpit, and the warning while an
# upload to the internet is under way. Amounts and byte counts arrive formatted.

traffic-label = egress
traffic-split = internet { $internet } ({ $internet_cost }), intranet { $intranet } ({ $intranet_cost }), other regions { $cross } ({ $cross_cost }) { $currency }
traffic-upload-label = upload
traffic-upload = uploading to the internet: { $bytes } since { $since } has cost { $cost } { $currency }
traffic-upload-route = through { $route } (the provider's intranet) it costs nothing
traffic-upload-no-route = the provider's intranet endpoint for the same store would carry it for nothing
