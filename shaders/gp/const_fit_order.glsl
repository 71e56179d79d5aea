// The order gp/const_fit.glsl walks a program in (included by it, after fit_state): where
// GP_FIT_REORDER is set, each binary operator's operand that needs more stack slots is walked
// first (Sethi and Ullman's order), so that a program of GP_CAP codes needs at most
// floor(log2 of its leaves) + 1 slots (a walk that needs k holds at least 2^(k - 1) leaves)
// where its written order may need up to 16: 6 at 64 codes, so that a fit takes 8.7 KB of
// shared memory instead of 14.3 and more fits share a multiprocessor (gp/const_fit.glsl's
// fit_state: at 10^4 x 1000 the fitting took 10 % less time on the H200). Only the
// order of independent subtrees changes: every operation takes the same operands, so the
// values and derivatives are the same bits (the twin walks the written order). A binary
// operator whose first operand is walked first carries FIT_SWAP: its operands are then the
// value below the top (the first) and the top. Not with a ternary operator in the function
// set (its operands stay where they are), nor in the build for few fits: those walk the
// written order in 16 slots (src/gp/sr/const_fit_gpu.c's walk_reordered says why).
//
// Invocation 0 alone, once a program: the codes are rewritten in place, walked backwards as
// the written ones are (a prefix order whose operands may be exchanged). Its working arrays
// are small integers kept as floats (exact) in F.st, unused while a program is read:
// node i's subtree size and need (INFO), a stack of nodes (STK) and, for the new position j,
// the written position its code comes from (SRC). const_fit_gpu.c sizes F.st to hold them.
#if GP_FIT_REORDER
#define ORD_AT(k) F.st[(k) >> 2][(k) & 3]
#define ORD_INFO(i) ORD_AT(i)
#define ORD_STK(t) ORD_AT(GP_CAP + 1 + (t))
#define ORD_SRC(j) ORD_AT(2 * (GP_CAP + 1) + (j))
#define ORD_SIZE(i) (int(ORD_INFO(i)) >> 6)
#define ORD_NEED(i) (int(ORD_INFO(i)) & 63)

// Rewrites F.code and F.value[1..len] (prefix order) into the walk's order; returns the
// slots the walk needs.
int fit_order(int len)
{
    // Each node's size and need, its children first (the written walk's order), and which
    // binary operators walk their first operand first.
    int top = 0;
    for (int i = len; i >= 1; --i) {
        uint op = F.code[i] & 255u;
        int ar = op <= 1u ? 0 : gp_arity(op), size = 1, need = 1;
        if (ar == 1) {
            int c = int(ORD_STK(top - 1));
            top -= 1;
            size += ORD_SIZE(c), need = ORD_NEED(c);
        } else if (ar == 2) {
            int first = int(ORD_STK(top - 1)), second = int(ORD_STK(top - 2));
            top -= 2;
            int nf = ORD_NEED(first), ns = ORD_NEED(second);
            size += ORD_SIZE(first) + ORD_SIZE(second);
            // Written order: the second operand is walked first, and held while the first is.
            if (nf > ns) {
                F.code[i] |= FIT_SWAP;
                need = nf;
            } else {
                need = max(ns, nf + 1);
            }
        }
        ORD_INFO(i) = float(size * 64 + need);
        ORD_STK(top) = float(i);
        top += 1;
    }
    // The new prefix order (each node, then its operands in the order the walk wants them
    // written: the one walked first last), as the written position of each new one.
    top = 1, ORD_STK(0) = 1.0;
    for (int j = 1; top > 0; ++j) {
        int i = int(ORD_STK(top - 1));
        top -= 1;
        ORD_SRC(j) = float(i);
        uint code = F.code[i], op = code & 255u;
        int ar = op <= 1u ? 0 : gp_arity(op);
        if (ar == 1) {
            ORD_STK(top) = float(i + 1);
            top += 1;
        } else if (ar == 2) {
            int first = i + 1, second = first + ORD_SIZE(first);
            bool swap = (code & FIT_SWAP) != 0u;
            ORD_STK(top) = float(swap ? first : second);     // written after
            ORD_STK(top + 1) = float(swap ? second : first); // written first
            top += 2;
        }
    }
    int need = ORD_NEED(1);
    // Codes and values moved to their new positions, cycle by cycle (SRC 0: moved).
    for (int s = 1; s <= len; ++s) {
        if (int(ORD_SRC(s)) == 0) continue;
        uint code = F.code[s];
        float value = F.value[s];
        for (int k = s;;) {
            int from = int(ORD_SRC(k));
            ORD_SRC(k) = 0.0;
            if (from == s) {
                F.code[k] = code, F.value[k] = value;
                break;
            }
            F.code[k] = F.code[from], F.value[k] = F.value[from];
            k = from;
        }
    }
    return need;
}
#undef ORD_AT
#undef ORD_INFO
#undef ORD_STK
#undef ORD_SRC
#undef ORD_SIZE
#undef ORD_NEED
#else
int fit_order(int len) { return 0; } // the written order: GP_FIT_STACK slots hold it
#endif
