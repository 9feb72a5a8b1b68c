// An empty stand-in: serial_cuda.h, force-included, holds what the kernel file uses.
#pragma once
