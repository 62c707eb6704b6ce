"""torch's math ops on lazy tensors: floor/ceil/round/sign, the
transcendental functions, remainder/fmod/atan2, isfinite, clamp and flip.
Each runs sharded over a 4 x 2 mesh (padded where the sizes do not divide)
and is compared with NumPy, whose semantics are torch's here."""

import numpy as np
import pytest

import xspmd
import xspmd.core.xla_model as xm
import xspmd.runtime as xr
import xspmd.spmd as xs


def _mesh():
    return xs.Mesh(np.arange(8), (4, 2), ("data", "model"))


def _sharded(array, spec=("data", "model")):
    return xs.mark_sharding(xspmd.tensor(array), _mesh(), spec)


def _values(shape=(6, 5), seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 3).astype(np.float32)


def _run(*tensors):
    xm.mark_step()
    assert xm.last_step_report()["partitioned"]
    return [t.numpy() for t in tensors]


def test_floor():
    a = _values()
    (y,) = _run(xspmd.floor(_sharded(a)))
    np.testing.assert_array_equal(y, np.floor(a))


def test_ceil():
    a = _values()
    (y,) = _run(_sharded(a).ceil())
    np.testing.assert_array_equal(y, np.ceil(a))


def test_round_is_half_to_even():
    a = np.array([[0.5, 1.5, 2.5, -0.5], [-1.5, -2.5, 3.7, -3.2]], np.float32)
    (y,) = _run(xspmd.round(_sharded(a)))
    np.testing.assert_array_equal(y, np.round(a))  # NumPy rounds half to even
    assert np.signbit(y[0, 3])  # -0.5 rounds to -0.0, as torch.round


def test_sign():
    a = np.array([[-2.0, 0.0, 3.0], [-0.0, np.nan, 1e-30]], np.float32)
    i = np.array([[-5, 0, 7], [2, -1, 0]], np.int32)
    y, yi = _run(xspmd.sign(_sharded(a)), _sharded(i).sign())
    np.testing.assert_array_equal(y, np.sign(a))
    np.testing.assert_array_equal(yi, np.sign(i))


def test_erf():
    a = _values()
    (y,) = _run(xspmd.erf(_sharded(a)))
    erf = np.vectorize(__import__("math").erf)
    np.testing.assert_allclose(y, erf(a.astype(np.float64)), rtol=1e-6,
                               atol=1e-6)


@pytest.mark.parametrize("name", ["cos", "sin", "tan", "log1p", "expm1"])
def test_transcendental(name):
    a = _values() / 3
    if name == "log1p":
        a = np.abs(a)
    (y,) = _run(getattr(xspmd, name)(_sharded(a)))
    np.testing.assert_allclose(y, getattr(np, name)(a), rtol=2e-6, atol=1e-6)


def test_remainder_has_the_divisors_sign():
    a = _values(seed=1)
    b = np.where(np.abs(_values(seed=2)) < 0.5, 1.5, _values(seed=2))
    y, s, m = _run(xspmd.remainder(_sharded(a), _sharded(b, ("data", None))),
                   _sharded(a) % 2.5, _sharded(a).remainder(-2.0))
    np.testing.assert_allclose(y, np.remainder(a, b), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(s, np.remainder(a, 2.5), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(m, np.remainder(a, -2.0), rtol=1e-5, atol=1e-5)
    ints = np.array([[7, -7, 7, -7], [5, -5, 0, 9]], np.int32)
    divs = np.array([[3, 3, -3, -3], [5, 2, 4, -4]], np.int32)
    (yi,) = _run(xspmd.remainder(_sharded(ints), _sharded(divs)))
    np.testing.assert_array_equal(yi, np.remainder(ints, divs))


def test_fmod_has_the_dividends_sign():
    a = _values(seed=3)
    (y,) = _run(xspmd.fmod(_sharded(a), -2.5))
    np.testing.assert_allclose(y, np.fmod(a, -2.5), rtol=1e-5, atol=1e-6)
    ints = np.array([[7, -7, 7, -7]], np.int32)
    (yi,) = _run(_sharded(ints, (None, "data")).fmod(3))
    np.testing.assert_array_equal(yi, np.fmod(ints, 3))


def test_atan2():
    a, b = _values(seed=4), _values(seed=5)
    (y,) = _run(xspmd.atan2(_sharded(a), _sharded(b, (None, "model"))))
    np.testing.assert_allclose(y, np.arctan2(a, b), rtol=2e-6, atol=1e-6)


def test_isfinite():
    a = np.array([[1.0, np.inf, -np.inf], [np.nan, 0.0, -3.0]], np.float32)
    i = np.arange(6, dtype=np.int32).reshape(2, 3)
    y, yi = _run(xspmd.isfinite(_sharded(a)), xspmd.isfinite(_sharded(i)))
    np.testing.assert_array_equal(y, np.isfinite(a))
    assert yi.dtype == np.bool_ and yi.all()


def test_clamp():
    a = _values(shape=(7, 5))
    lo = np.full((5,), -1.0, np.float32)
    both, low, high, bounds = _run(
        xspmd.clamp(_sharded(a), -1.5, 2.0), _sharded(a).clamp(min=0.5),
        xspmd.clamp(_sharded(a), max=-0.25),
        xspmd.clamp(_sharded(a), xspmd.tensor(lo), xspmd.tensor(lo + 2)))
    np.testing.assert_array_equal(both, np.clip(a, -1.5, 2.0))
    np.testing.assert_array_equal(low, np.maximum(a, 0.5))
    np.testing.assert_array_equal(high, np.minimum(a, -0.25))
    np.testing.assert_array_equal(bounds, np.clip(a, lo, lo + 2))
    with pytest.raises(ValueError, match="min or max"):
        xspmd.clamp(_sharded(a))


def test_flip():
    a = _values(shape=(10, 6))
    rows, both, last = _run(xspmd.flip(_sharded(a), [0]),
                            _sharded(a).flip(0, 1), xspmd.flip(_sharded(a), -1))
    np.testing.assert_array_equal(rows, np.flip(a, 0))
    np.testing.assert_array_equal(both, np.flip(a, (0, 1)))
    np.testing.assert_array_equal(last, np.flip(a, -1))
    with pytest.raises(ValueError, match="out of range"):
        xspmd.flip(_sharded(a), [2])
    with pytest.raises(ValueError, match="twice"):
        xspmd.flip(_sharded(a), [0, -2])


def test_flip_of_a_split_dimension_permutes():
    # Rows split over "data" (padded: 10 rows in blocks of 3) are reversed by
    # exchanging mirror blocks, not by gathering them.
    a = _values(shape=(10, 64))
    y = xspmd.flip(_sharded(a, ("data", None)), [0])
    xs.mark_sharding(y, _mesh(), ("data", None))
    (out,) = _run(y)
    np.testing.assert_array_equal(out, np.flip(a, 0))
    assert "collective_permute" in xm.last_step_report()["collectives"]
    assert "all_gather" not in xm.last_step_report()["collectives"]
