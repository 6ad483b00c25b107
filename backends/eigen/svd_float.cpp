// The float instantiation of the Eigen backend's SVD (see svd.hpp for why it has its own file).
#include "svd.hpp"

namespace ember::eigen {

template bool bdc_svd<float>(const SvdMatrix<float>&, unsigned, Svd<float>&);

}  // namespace ember::eigen
