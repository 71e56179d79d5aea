// How many streaming multiprocessors this NVIDIA GPU has (GL_NV_shader_thread_group): the most
// work-groups that are certainly resident at once, for kernels whose groups wait on each other
// (cga/block.glsl's persistent path). C side: src/gl/sm_count.c.
#extension GL_NV_shader_thread_group : require
layout(local_size_x = 1) in;
layout(std430) writeonly buffer sm_out { uint sm_count; };
void main() { sm_count = gl_SMCountNV; }
