package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReservationTest {
    @Test
    void aReservationReadsBackWithItsToken() {
        Reservation written = new Reservation(10_000, "3f2a9c1e-0b7d-4c1a-9a51-2b6f0e8d1c44");
        assertThat(new String(written.encode(), US_ASCII)).isEqualTo("10000 3f2a9c1e-0b7d-4c1a-9a51-2b6f0e8d1c44");
        assertThat(Reservation.decode("/ids/a", written.encode(), 1)).isEqualTo(written);
    }

    @Test
    void aNumberAloneSeedsTheAllocatorAndNoDataMeansNothingWasReserved() {
        assertThat(Reservation.decode("/ids/a", "5000".getBytes(US_ASCII), 1)).isEqualTo(new Reservation(5000, null));
        assertThat(Reservation.decode("/ids/a", new byte[0], 7)).isEqualTo(new Reservation(7, null));
    }

    @Test
    void anythingElseIsRefusedNamingThePathAndWhatItHolds() {
        assertThatThrownBy(() -> Reservation.decode("/ids/a", "hello".getBytes(US_ASCII), 1))
            .isInstanceOf(IdAllocatorException.class)
            .hasMessage("id allocator /ids/a holds 'hello', expected '<next id> <writer token>' or a number: it is not an allocator's node");
        assertThatThrownBy(() -> Reservation.decode("/ids/a", "-5".getBytes(US_ASCII), 1)).isInstanceOf(IdAllocatorException.class);
        assertThatThrownBy(() -> Reservation.decode("/ids/a", "99999999999999999999".getBytes(US_ASCII), 1))
            .as("past a long").isInstanceOf(IdAllocatorException.class);
        assertThatThrownBy(() -> Reservation.decode("/ids/a", new byte[500], 1))
            .isInstanceOf(IdAllocatorException.class).hasMessageContaining("holds 500 bytes");
    }
}
