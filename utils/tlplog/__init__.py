"""tlplog: the test wing's one toolkit for TORCH_TRACE logs (stdlib only).

Every script under utils/, test/utils/, bench/ and fuzz/ that reads,
writes, damages or judges logs imports it; the scripts are thin entry
points (their command lines are the lit RUN lines'). docs/testing.md,
"The log toolkit", describes it.

  tlplog.log      reading (envelopes, payloads, kinds, event ranges) and
                  writing (TraceLog) logs, independently of tlp's reader
  tlplog.mutate   mutants and damaged or hostile inputs, from a seed
  tlplog.verdict  the pass/fail rules: a tool run, a JSON output, the
                  output against the log, text for a terminal
  tlplog.biglog   big logs for scale tests and benchmarks

A script finds the package from its own place:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "..", "utils"))
    from tlplog import log
"""
