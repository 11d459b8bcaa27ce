package io.qawk.orchestrator.hawkbit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.Random;

import com.sun.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

/**
 * {@link HawkbitClient#readBody}: the whole answer, whatever its Content-Length says and however it arrives, in one
 * array of its size and without buffers of its own (what the first sync's 300,000 answers allocate).
 */
class ReadBodyTest {

    private static final byte[] BODY = new byte[100_000];

    static {
        new Random(16).nextBytes(BODY);
    }

    @Test
    void anAnswerInPiecesIsReadWholeWithOrWithoutItsLength() throws IOException {
        assertThat(HawkbitClient.readBody(new Pieces(BODY, 3), BODY.length)).isEqualTo(BODY);
        assertThat(HawkbitClient.readBody(new Pieces(BODY, 3), -1)).isEqualTo(BODY);
        assertThat(HawkbitClient.readBody(new Pieces(BODY, 1), -1)).isEqualTo(BODY);
    }

    @Test
    void aLengthThatIsWrongOrAbsurdChangesNothingOfWhatArrived() throws IOException {
        assertThat(HawkbitClient.readBody(new Pieces(BODY, 3), BODY.length + 50)).as("longer than what came")
                .isEqualTo(BODY);
        assertThat(HawkbitClient.readBody(new Pieces(BODY, 3), 10)).as("shorter than what came").isEqualTo(BODY);
        assertThat(HawkbitClient.readBody(new Pieces(BODY, 3), Long.MAX_VALUE)).as("not trusted with an array")
                .isEqualTo(BODY);
        assertThat(HawkbitClient.readBody(new Pieces(new byte[0], 1), 0)).isEmpty();
        assertThat(HawkbitClient.readBody(new Pieces(new byte[0], 1), -1)).isEmpty();
        assertThat(HawkbitClient.readBody(null, 5)).isNull();
    }

    @Test
    void anAnswerOfKnownLengthCostsOneArrayOfItsSize() throws IOException {
        for (int i = 0; i < 2_000; i++) { // past the interpreter and the JIT's first tiers
            HawkbitClient.readBody(new Pieces(BODY, 3), BODY.length);
        }
        Pieces in = new Pieces(BODY, 3);
        long before = allocatedBytes();
        byte[] read = HawkbitClient.readBody(in, BODY.length);
        long allocated = allocatedBytes() - before;

        assertThat(read).isEqualTo(BODY);
        // the array itself, a few bytes of header, and the measurement's own small change; a second copy or an
        // 8 KB buffer per piece would be far above
        assertThat(allocated).as("bytes allocated reading a %d-byte answer", BODY.length)
                .isLessThan(BODY.length + 4_096L);
    }

    private static long allocatedBytes() {
        return ((ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** An answer that arrives in {@code pieces} parts: {@code available()} is only what arrived so far. */
    private static final class Pieces extends InputStream {
        private final ByteArrayInputStream data;
        private final int pieceSize;
        private int leftInPiece;

        Pieces(byte[] body, int pieces) {
            this.data = new ByteArrayInputStream(body);
            this.pieceSize = Math.max(1, (body.length + pieces - 1) / pieces);
            this.leftInPiece = Math.min(pieceSize, body.length);
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (leftInPiece == 0) {
                leftInPiece = Math.min(pieceSize, data.available());
                if (leftInPiece == 0) {
                    return -1;
                }
            }
            int n = data.read(b, off, Math.min(len, leftInPiece));
            leftInPiece -= n;
            return n;
        }

        @Override
        public int available() {
            return leftInPiece;
        }
    }
}
