// cross-solver tests (to be written)
