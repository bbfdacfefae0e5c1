import { describe, expect, it } from "vitest";
import { accessInWords } from "../../app/components/shell/your-access";

const gym = (id: number, name: string, role: "admin" | "personal_trainer" | "member" | null) => ({ id, name, logo: null, role, archived: false });

describe("the sidebar's role in words (Your access)", () => {
  it("names an organisation admin, a gym admin of one gym or several, and anyone else by the current gym's role", () => {
    const admin = gym(1, "Central", "admin");
    expect(accessInWords({ is_organisation_admin: true, is_gym_admin: true, gyms: [admin], current_gym: admin })).toBe("Organisation admin");
    const two = [admin, gym(2, "Ponsonby", "admin"), gym(3, "Newmarket", "personal_trainer")];
    expect(accessInWords({ is_organisation_admin: false, is_gym_admin: true, gyms: two, current_gym: two[2] })).toBe("Gym admin at 2 gyms");
    expect(accessInWords({ is_organisation_admin: false, is_gym_admin: true, gyms: [admin, two[2]], current_gym: admin })).toBe("Gym admin at Central");
    const trainer = gym(3, "Newmarket", "personal_trainer");
    expect(accessInWords({ is_organisation_admin: false, is_gym_admin: false, gyms: [trainer], current_gym: trainer })).toBe("Personal Trainer");
    expect(accessInWords({ is_organisation_admin: false, is_gym_admin: false, gyms: [], current_gym: null })).toBe("Staff");
  });
});
