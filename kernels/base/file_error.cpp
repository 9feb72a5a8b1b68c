#include "base/file_error.hpp"

namespace tilescope::base {

std::string FileError::problem() const {
    if (operation == Operation::Read) {
        switch (kind) {
            case Kind::Missing:
                return "does not exist";
            case Kind::Open:
                return "cannot be opened (" + detail + ")";
            case Kind::IsDirectory:
                return "is a directory, not a file";
            case Kind::NotRegularFile:
                return "is not a regular file";
            case Kind::TooLarge:
                return "is too large (" + std::to_string(size) + " bytes, the limit is " + std::to_string(limit) + ")";
            case Kind::Shrank:
                return "shrank while it was being read";
            default:
                return "cannot be read (" + detail + ")";
        }
    }
    switch (kind) {
        case Kind::NotAFileName:
            return "is not a file name";
        case Kind::IsDirectory:
            return "cannot be written: it is a directory";
        case Kind::NotRegularFile:
            return "cannot be written: it is not a regular file (a device, FIFO or socket)";
        case Kind::Exists:
            return "cannot be written: it exists already";
        case Kind::CreateTemporary: {
            const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
            return "cannot be written: no temporary file can be created in '" + folder.string() + "' (" + detail + ")";
        }
        default:
            return "cannot be written (" + detail + ")";
    }
}

std::string FileError::message() const {
    return path.string() + ": " + problem();
}

}  // namespace tilescope::base
