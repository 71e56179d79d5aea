// What each pass is, in the history docs/guide.md tells (§1-§3), with its references: the
// numbers are the guide's reference list (glevo.REFERENCES).
'use strict';
var glevo = window.glevo || (window.glevo = {});

glevo.NOTES = {
  'cga.fitness': 'One fragment per individual (guide §3.1): the 24-bit gene integers, held ' +
    'exactly in float channels, are decoded onto the domain and streamed through the problem ' +
    'snippet, composed in as #include <problem>. A texture is the array, the fragment program ' +
    'the loop body, drawing a quad the loop: Harris\'s mapping in GPU Gems 2 [3]; the paper ' +
    'ran this on a GeForce 6800 LE [7], whose fp32 fragment units [6] made it possible.',
  'reduce': 'A fragment writes only its own texel, so "find the best" is a pyramid of passes, ' +
    'each reading a 2x2 block and keeping the better (value, x, y), halving both sizes until ' +
    'one texel is left (guide §3.2; Harris [3], Goddeke\'s reduction tutorial [4]). Nothing ' +
    'comes back to the CPU: a 64x64 grid takes 6 small draws.',
  'cga.keep_best': 'The paper\'s Step 4 [7]: the generation\'s best is compared with the history ' +
    'best, and the winner\'s genes are copied into a (1 + textures) x 1 record texture. Two ' +
    'record textures ping-pong, because a pass may not read the texture it writes (render to ' +
    'texture by framebuffer objects, 2005 [5]).',
  'cga.select': 'Roulette over the neighbourhood on the torus (guide §3.3): a gather from fixed ' +
    'neighbours, never a scatter, which is why a cellular GA suits the fragment model. ' +
    'Good individuals copy themselves into their neighbours: blocks appear in the picture. ' +
    'Several outputs at once need ARB_draw_buffers [5].',
  'cga.crossover_points': 'A (W/2) x H texture of cut points, per pair and gene one in 0..L-1 ' +
    'with probability pc, else -1 (guide §3.4). The random words come from Philox4x32-10 ' +
    'counted by (texel, generation, pass, draw) [10]; the paper itself read a 1024x1024 table ' +
    'of random numbers uploaded by the CPU, "the GPU provides no random number function" [7].',
  'cga.crossover': 'Texels 2i and 2i+1 of a row are a pair; each child keeps its low bits and ' +
    'takes its partner\'s high bits, spliced with float arithmetic (mod, floor, powers of two) ' +
    'because the GeForce 6 had no integer instructions [6]; integers in shaders came with ' +
    'EXT_gpu_shader4 in November 2006 [5]. Each child is computed by its own fragment.',
  'cga.mutate': 'Each bit flips with probability pm, one random word per bit and gene (guide ' +
    '§3.5): L = 24 Philox calls per texel and gene texture make this the expensive pass (66% ' +
    'of a generation on the H100). The counter-based Philox [10] needs no state between ' +
    'generations, where the paper\'s table needed a fresh random offset each one [7]. Its ' +
    'output is the next population: the ping-pong closes.'
,
  'de.trial': 'Pass 1 of 2, fused as cudaDE_i fused its kernel [11]: one fragment per ' +
    'individual derives r1, r2, r3 and jrand from the counter RNG [10], builds every trial ' +
    'gene (mutation, crossover, bound repair), evaluates the trial with the problem snippet ' +
    'and writes (fitness, accept flag), plus its choices in an integer texture for pass 2. No ' +
    'mutant or trial texture is ever stored.',
  'de.select': 'Pass 2 of 2: one fragment per gene writes the next population. A rejected ' +
    'trial keeps the target\'s gene; an accepted one re-derives the trial gene from the choices ' +
    'pass 1 left, one Philox call [10] and three texel reads instead of a trial texture [11]. ' +
    'A fragment writes only its own texel, which is why the step takes two passes.'
};

glevo.noteFor = function (passName) {
  if (/^reduce\./.test(passName)) return glevo.NOTES.reduce;
  return glevo.NOTES[passName] || '';
};

glevo.REFERENCES = {
  3: 'M. Harris. Mapping computational concepts to GPUs. GPU Gems 2, chapter 31, Addison-Wesley, 2005.',
  4: 'D. Goddeke. GPGPU tutorials: Basic Math and Reduction. Universitat Dortmund, ' +
     'http://www.mathematik.uni-dortmund.de/~goeddeke/gpgpu/',
  5: 'OpenGL extension registry: EXT_framebuffer_object (2005), ARB_texture_float, ' +
     'ARB_draw_buffers, EXT_gpu_shader4 (2006). https://registry.khronos.org/OpenGL/',
  6: 'E. Kilgariff and R. Fernando. The GeForce 6 series GPU architecture. GPU Gems 2, chapter 30, 2005.',
  7: 'Li Jianming, Chi Zhongxian and Wan Danling. Parallel genetic algorithm based on ' +
     'fine-grained model with GPU accelerated. Control and Decision, 2008, no. 6, 697-700, 704.',
  11: 'A. K. Qin, F. Raimondo, F. Forbes and Y. S. Ong. An improved CUDA-based implementation ' +
      'of differential evolution on GPU. GECCO \'12, ACM, 2012, 991-998.',
  10: 'J. K. Salmon, M. A. Moraes, R. O. Dror and D. E. Shaw. Parallel random numbers: as easy ' +
      'as 1, 2, 3. SC \'11, ACM, 2011.'
};
