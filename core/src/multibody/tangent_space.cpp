#include "hopsim/core/multibody/tangent_space.h"

#include "hinge_kernels.h"

namespace hopsim::multibody {

void integrateConfiguration(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& delta,
                            Eigen::Ref<Eigen::VectorXd> q_out) {
  constexpr const char* kWhere = "integrateConfiguration";
  detail::checkSize(q.size(), model.nq(), kWhere, "q");
  detail::checkSize(delta.size(), model.nu(), kWhere, "delta");
  detail::checkSize(q_out.size(), model.nq(), kWhere, "q_out");
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    const Hinge& h = model.hinge(b);
    for (int k = 0; k < h.subhingeCount(); ++k) {
      const Subhinge& s = h.subhinge(k);
      const int iq = model.qStart(b) + s.qOffset;
      const int iu = model.uStart(b) + s.uOffset;
      if (s.type == SubhingeType::Pin || s.type == SubhingeType::Slider) {
        q_out[iq] = q[iq] + delta[iu];
        continue;
      }
      // Read everything of this subhinge before writing: q_out may alias q.
      const spatial::Quaternion e = q.segment<4>(iq);
      const spatial::Quaternion turn = spatial::quaternionFromRotationVector(delta.segment<3>(iu));
      if (s.type == SubhingeType::Ball) {
        q_out.segment<4>(iq) = spatial::quaternionProduct(e, turn);
        continue;
      }
      const Vector3 p = q.segment<3>(iq + 4);
      const Vector3 dp = delta.segment<3>(iu + 3);
      if (s.type == SubhingeType::Free) {
        const Matrix3 R_FM = detail::rotationFromStoredQuaternion(q.data() + iq);
        q_out.segment<3>(iq + 4) = p + R_FM * dp;
        q_out.segment<4>(iq) = spatial::quaternionProduct(e, turn);
      } else {  // FreeInertial: rates in F
        q_out.segment<3>(iq + 4) = p + dp;
        q_out.segment<4>(iq) = spatial::quaternionProduct(turn, e);
      }
    }
  }
}

}  // namespace hopsim::multibody
