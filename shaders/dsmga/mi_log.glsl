// BuildDSM's natural log: the statement-for-statement twin of src/dsmga/mi_log.h (read its
// comment for why it exists). Every step is `precise`, so no compiler fuses a multiply and an
// add or reorders: float + - * are IEEE round-to-nearest on NVIDIA and llvmpipe, and the GPU
// computes the CPU twin's bits.

// Cephes logf coefficients and ln 2 in two parts, given by their bits.
const float DSM_LOG_P0 = uintBitsToFloat(0x3d9021bbu); //  7.0376836292e-2
const float DSM_LOG_P1 = uintBitsToFloat(0xbdebd1b8u); // -1.1514610310e-1
const float DSM_LOG_P2 = uintBitsToFloat(0x3def251au); //  1.1676998740e-1
const float DSM_LOG_P3 = uintBitsToFloat(0xbdfe5d4fu); // -1.2420140846e-1
const float DSM_LOG_P4 = uintBitsToFloat(0x3e11e9bfu); //  1.4249322787e-1
const float DSM_LOG_P5 = uintBitsToFloat(0xbe2aae50u); // -1.6668057665e-1
const float DSM_LOG_P6 = uintBitsToFloat(0x3e4cceacu); //  2.0000714765e-1
const float DSM_LOG_P7 = uintBitsToFloat(0xbe7ffffcu); // -2.4999993993e-1
const float DSM_LOG_P8 = uintBitsToFloat(0x3eaaaaaau); //  3.3333331174e-1
const float DSM_LN2_LO = uintBitsToFloat(0xb95e8083u); // -2.12194440e-4
const float DSM_LN2_HI = uintBitsToFloat(0x3f318000u); //  0.693359375
const float DSM_SQRT_HALF = uintBitsToFloat(0x3f3504f3u);

// ln x for finite normal x > 0 (BuildDSM passes counts and products of counts, all >= 1).
float dsm_log(float x)
{
    int e;
    precise float m = frexp(x, e); // x = m 2^e, m in [0.5, 1): exact
    precise float f;
    if (m < DSM_SQRT_HALF) {
        e -= 1;
        f = (m + m) - 1.0; // exact
    } else {
        f = m - 1.0; // exact (Sterbenz)
    }
    precise float z = f * f;
    precise float p = DSM_LOG_P0;
    p = p * f + DSM_LOG_P1;
    p = p * f + DSM_LOG_P2;
    p = p * f + DSM_LOG_P3;
    p = p * f + DSM_LOG_P4;
    p = p * f + DSM_LOG_P5;
    p = p * f + DSM_LOG_P6;
    p = p * f + DSM_LOG_P7;
    p = p * f + DSM_LOG_P8;
    precise float fe = float(e);
    precise float y = (f * z) * p;
    y = y + DSM_LN2_LO * fe;
    y = y - 0.5 * z;
    precise float r = f + y;
    r = r + DSM_LN2_HI * fe;
    return r;
}
