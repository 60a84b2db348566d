// Prints java.util.Random outputs as a script of operations and expected
// results; tests/core/test_jrandom.c replays the script against ms_jrandom.
// Regenerate: java tests/core/JRandomVectors.java > tests/core/jrandom_vectors.txt
import java.util.Random;

public class JRandomVectors {
    static void appendLog(StringBuilder out, double x) {
        out.append("log ").append(Long.toHexString(Double.doubleToRawLongBits(x))).append(' ')
           .append(Long.toHexString(Double.doubleToRawLongBits(StrictMath.log(x)))).append('\n');
    }

    public static void main(String[] args) {
        long[] seeds = {0L, 1L, -1L, 42L, 123456789L, Long.MIN_VALUE, Long.MAX_VALUE,
                        0x5DEECE66DL, 0xCAFEBABEL, -987654321012345L};
        int[] bounds = {1, 2, 3, 5, 7, 10, 16, 100, 1000, 1 << 30, (1 << 30) + 1,
                        Integer.MAX_VALUE, 1500000000};
        StringBuilder out = new StringBuilder();
        for (long s : seeds) {
            Random r = new Random(s);
            out.append("seed ").append(s).append('\n');
            for (int i = 0; i < 8; i++) out.append("int ").append(r.nextInt()).append('\n');
            for (int k = 0; k < 3; k++)
                for (int b : bounds) out.append("intb ").append(b).append(' ').append(r.nextInt(b)).append('\n');
            for (int i = 0; i < 4; i++) out.append("long ").append(r.nextLong()).append('\n');
            for (int i = 0; i < 4; i++)
                out.append("double ").append(Long.toHexString(Double.doubleToRawLongBits(r.nextDouble()))).append('\n');
            for (int i = 0; i < 4; i++)
                out.append("float ").append(Integer.toHexString(Float.floatToRawIntBits(r.nextFloat()))).append('\n');
            for (int i = 0; i < 4; i++) out.append("bool ").append(r.nextBoolean() ? 1 : 0).append('\n');
            for (int i = 0; i < 7; i++)
                out.append("gauss ").append(Long.toHexString(Double.doubleToRawLongBits(r.nextGaussian()))).append('\n');
            byte[] bytes = new byte[7];
            r.nextBytes(bytes);
            out.append("bytes ").append(bytes.length);
            for (byte x : bytes) out.append(' ').append(x & 0xff);
            out.append('\n');
            r.setSeed(s + 17);
            out.append("setseed ").append(s + 17).append('\n');
            for (int i = 0; i < 3; i++) out.append("intb 6 ").append(r.nextInt(6)).append('\n');
        }
        // Many gaussians from one generator: StrictMath.log vs the C library.
        Random g = new Random(2024);
        out.append("seed 2024\n");
        for (int i = 0; i < 2000; i++)
            out.append("gauss ").append(Long.toHexString(Double.doubleToRawLongBits(g.nextGaussian()))).append('\n');
        // StrictMath.log over a wide range, plus edge cases.
        Random v = new Random(7);
        double[] edge = {1.0, 2.0, 0.5, Math.E, 1e-300, Double.MIN_VALUE, Double.MAX_VALUE,
                         1.0000001, 0.9999999, 1.0 + Math.ulp(1.0), 0.0, -0.0, -1.0,
                         Double.POSITIVE_INFINITY, Double.NaN, 4.9e-320};
        for (double x : edge) appendLog(out, x);
        for (int i = 0; i < 3000; i++) {
            double x = i % 2 == 0 ? v.nextDouble() : Math.scalb(v.nextDouble() + 0.5, v.nextInt(2000) - 1000);
            appendLog(out, x);
        }
        System.out.print(out);
    }
}
