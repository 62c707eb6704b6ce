//===- XlaDeviceGuard.cpp - c10's device guard for the `xla` device -------===//
//
// PyTorch's autograd engine asks c10 for the DeviceGuardImplInterface of
// every device its tensors live on; without one, `loss.backward()` on an
// `xla:0` tensor fails with "PyTorch is not linked with support for xla
// devices". torch_xla registers its guard in C++; this library does the
// same for xspmd's single logical `xla:0` device (the simulated chips are
// SPMD partitions of it, not separate torch devices). Loading it (ctypes,
// from xspmd.torch) runs the registration; it holds no other code.
//
//===----------------------------------------------------------------------===//

#include <c10/core/impl/DeviceGuardImplInterface.h>

namespace {

/// One device, one default stream, events that are always complete: the
/// lazy graph runs at mark_step, so there is nothing to wait for here.
struct XlaGuardImpl final : public c10::impl::DeviceGuardImplInterface {
  XlaGuardImpl() = default;
  explicit XlaGuardImpl(c10::DeviceType type) {
    TORCH_INTERNAL_ASSERT(type == c10::DeviceType::XLA);
  }
  c10::DeviceType type() const override { return c10::DeviceType::XLA; }
  c10::Device exchangeDevice(c10::Device device) const override {
    checkDevice(device);
    return c10::Device(c10::DeviceType::XLA, 0);
  }
  c10::Device getDevice() const override {
    return c10::Device(c10::DeviceType::XLA, 0);
  }
  void setDevice(c10::Device device) const override { checkDevice(device); }
  void uncheckedSetDevice(c10::Device) const noexcept override {}
  c10::Stream getStream(c10::Device device) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, device);
  }
  c10::Stream exchangeStream(c10::Stream) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT,
                       c10::Device(c10::DeviceType::XLA, 0));
  }
  c10::DeviceIndex deviceCount() const noexcept override { return 1; }
  void record(void **, const c10::Stream &, const c10::DeviceIndex,
              const c10::EventFlag) const override {}
  void block(void *, const c10::Stream &) const override {}
  bool queryEvent(void *) const override { return true; }
  void destroyEvent(void *, const c10::DeviceIndex) const noexcept override {}

private:
  static void checkDevice(c10::Device device) {
    TORCH_CHECK(device.type() == c10::DeviceType::XLA && device.index() <= 0,
                "xspmd has one torch device, xla:0 (got ", device, ")");
  }
};

} // namespace

C10_REGISTER_GUARD_IMPL(XLA, XlaGuardImpl);
