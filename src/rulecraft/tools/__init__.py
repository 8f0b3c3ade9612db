"""Designer tools built on the engine: card sheets, solvers."""
