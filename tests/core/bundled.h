// The bundled demo workspace the core tests load.
#pragma once

#include <string>

inline const std::string kWorkspace = ACSEL_DATASETS "/workspace.json";
