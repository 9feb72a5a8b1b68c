#include "export/svg_writer.hpp"

#include <cstdio>

#include "export/frame_writer.hpp"
#include "io/file_checks.hpp"
#include "io/whole_file.hpp"

namespace tilescope::exports {

namespace {

// Short numbers: two decimals at most, no trailing zeros.
std::string num(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", v);
    std::string s = text;
    while (!s.empty() && s.back() == '0')
        s.pop_back();
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s == "-0" ? "0" : s;
}

std::string colour(Rgba c) {
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", c.r, c.g, c.b);
    return text;
}

std::string paint(const char* what, Rgba c) {
    std::string s = std::string(what) + "=\"" + colour(c) + "\"";
    if (c.a != 255)
        s += std::string(" ") + what + "-opacity=\"" + num(c.a / 255.0) + "\"";
    return s;
}

}  // namespace

std::string xmlEscape(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

SvgDocument::SvgDocument(double width, double height, std::string attributes)
    : m_width(width), m_height(height), m_attributes(std::move(attributes)) {}

void SvgDocument::rect(double x, double y, double width, double height, Rgba fill) {
    if (fill.a == 0)
        return;
    m_body += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(width) + "\" height=\"" + num(height) +
              "\" " + paint("fill", fill) + "/>\n";
}

void SvgDocument::rectOutline(double x, double y, double width, double height, Rgba stroke, double thickness) {
    if (stroke.a == 0)
        return;
    m_body += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(width) + "\" height=\"" + num(height) +
              "\" fill=\"none\" " + paint("stroke", stroke) + " stroke-width=\"" + num(thickness) + "\"/>\n";
}

void SvgDocument::line(double x0, double y0, double x1, double y1, Rgba stroke, double thickness) {
    if (stroke.a == 0)
        return;
    m_body += "<line x1=\"" + num(x0) + "\" y1=\"" + num(y0) + "\" x2=\"" + num(x1) + "\" y2=\"" + num(y1) + "\" " +
              paint("stroke", stroke) + " stroke-width=\"" + num(thickness) + "\"/>\n";
}

void SvgDocument::circle(double cx, double cy, double radius, Rgba stroke, double thickness) {
    if (stroke.a == 0)
        return;
    m_body += "<circle cx=\"" + num(cx) + "\" cy=\"" + num(cy) + "\" r=\"" + num(radius) + "\" fill=\"none\" " +
              paint("stroke", stroke) + " stroke-width=\"" + num(thickness) + "\"/>\n";
}

void SvgDocument::text(double x, double y, double size, std::string_view text, Rgba fill, bool mono, bool bold) {
    m_body += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(size) + "\" font-family=\"" +
              (mono ? "DejaVu Sans Mono, monospace" : "DejaVu Sans, Helvetica, Arial, sans-serif") + "\"" +
              (bold ? " font-weight=\"bold\"" : "") + " " + paint("fill", fill) + ">" + xmlEscape(text) + "</text>\n";
}

void SvgDocument::beginClip(double x, double y, double width, double height) {
    const std::string id = "clip" + std::to_string(m_clips++);
    m_defs += "<clipPath id=\"" + id + "\"><rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(width) +
              "\" height=\"" + num(height) + "\"/></clipPath>\n";
    m_body += "<g clip-path=\"url(#" + id + ")\">\n";
}

void SvgDocument::endClip() {
    m_body += "</g>\n";
}

void SvgDocument::comment(std::string_view text) {
    std::string safe(text);
    for (std::size_t at; (at = safe.find("--")) != std::string::npos;)
        safe.replace(at, 2, "- -");
    m_body += "<!-- " + safe + " -->\n";
}

std::string SvgDocument::str() const {
    std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(m_width) + "\" height=\"" +
         num(m_height) + "\" viewBox=\"0 0 " + num(m_width) + " " + num(m_height) + "\"";
    if (!m_attributes.empty())
        s += " " + m_attributes;
    s += ">\n";
    if (!m_defs.empty())
        s += "<defs>\n" + m_defs + "</defs>\n";
    s += m_body;
    s += "</svg>\n";
    return s;
}

Status SvgDocument::write(const std::filesystem::path& path) const {
    if (const std::string reason = unwritableReason(path); !reason.empty())
        return io::fileError(path, reason);
    return io::writeFileAtomic(path, str());
}

}  // namespace tilescope::exports
