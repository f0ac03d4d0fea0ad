"""Smart recall as small pure stages: intent → anchors (RRF) → beam search → re-rank → causal order."""
