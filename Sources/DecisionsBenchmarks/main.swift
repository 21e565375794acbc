// Placeholder: the benchmark program is being written (see Docs/Performance.md when it lands).
print("decisions-bench: not written yet")
