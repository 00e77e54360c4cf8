# gpumeter's errors in English and what to fix, as stderr shows them after `gpumeter: `. The
# provider's own code and message, paths, flags, variables and commands stay as they are.

# the program
err-core-dumps-on = warning: core dumps stay on: { $error }
