// Boost.Asio's and Boost.Beast's compiled parts, built once here: the library defines
// BOOST_ASIO_SEPARATE_COMPILATION and BOOST_BEAST_SEPARATE_COMPILATION for itself and for every target that
// links it (protocol/CMakeLists.txt), so the files that use them (the transports, the web server test)
// include declarations instead of compiling the implementations again (CI compiles them in three
// configurations on two cores).
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
