"""torch_xla.debug.metrics (``met``): the metrics report."""

from .. import runtime as _rt


def metrics_report():
    """Every metric and counter, in PyTorch/XLA's report format."""
    return _rt.get().metrics_report()


def short_metrics_report():
    """CompileTime, ExecuteTime and the compilation counters."""
    return _rt.get().short_metrics_report()


def counter_value(name):
    value = _rt.get().counter_value(name)
    return value if value else None


def metric_data(name):
    """(total samples,) of ``name`` or None (the simulator keeps samples in
    the report; this gives their count)."""
    samples = _rt.get().metric_samples(name)
    return (samples,) if samples else None
