// Writes the sample plugins and save into a folder: tesmod_make_samples [DIR] (default: samples).
#include <iostream>

#include "sample_builder.hpp"

int main(int argc, char** argv) {
  try {
    tesmod::samples::write_all(argc > 1 ? argv[1] : "samples");
  } catch (const std::exception& e) {
    std::cerr << "tesmod_make_samples: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
