// The double instantiation of the Eigen backend's SVD (see svd.hpp for why it has its own file).
#include "svd.hpp"

namespace ember::eigen {

template bool bdc_svd<double>(const SvdMatrix<double>&, unsigned, Svd<double>&);

}  // namespace ember::eigen
