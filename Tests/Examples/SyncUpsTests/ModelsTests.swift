import Foundation
import SyncUps
import Testing

@Suite struct ModelsTests {
  @Test func fixedIDsAreDistinctAndStable() {
    #expect(UUID(1).uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(UUID(255).uuidString == "00000000-0000-0000-0000-0000000000FF")
    #expect(UUID(1) != UUID(2))
  }

  @Test func eachAttendeeGetsAnEqualShare() {
    var syncUp = SyncUp(id: UUID(0), durationInSeconds: 60)
    #expect(syncUp.secondsPerAttendee == 60)
    syncUp.attendees = [Attendee(id: UUID(1)), Attendee(id: UUID(2)), Attendee(id: UUID(3))]
    #expect(syncUp.secondsPerAttendee == 20)
    syncUp.durationInSeconds = 1
    #expect(syncUp.secondsPerAttendee == 1)
  }
}
