"""Algorithm families. Engines know nothing of puzzles: kinds translate puzzles onto them."""
