#version 330 core
// One triangle that covers the whole viewport, made from gl_VertexID alone:
// no vertex buffer is needed. The fragment shader does the work.
void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
