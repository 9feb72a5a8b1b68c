#include "own/own_entry.hpp"

#include <utility>

namespace tilescope::own {

OwnEntry::OwnEntry(OwnEntryDescription description)
    : m_description(std::move(description)), m_sourceFile("own:" + m_description.path),
      m_info{KernelId::Own,
             m_description.name,
             m_description.dims,
             "your kernel",
             "your own kernel, read from its file",
             m_sourceFile,
             m_description.maskSpace,
             TileShape::None,
             m_description.usesShared,
             false,
             {m_description.arrayNames[0], m_description.arrayNames[1], m_description.arrayNames[2],
              m_description.arrayNames[3]}} {
    m_info.sourceText = m_description.text;
    for (const std::string& name : m_description.sharedParts) m_sharedParts.emplace_back(name);
    m_info.sharedParts = m_sharedParts;
}

}  // namespace tilescope::own
